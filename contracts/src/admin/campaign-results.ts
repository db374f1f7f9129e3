import { boolean, number, object, type InferType } from 'yup';
import type { Locale } from '../locales';
import { message, oneOfText, optionalText } from '../validation/fields';
import { SEARCH_MAX_LENGTH, listQuerySchema } from './list-query';

/**
 * Campaign results: what the open pixel and tracking links record, the
 * settings that govern them, and the report staff read. Shared by the API
 * (which answers the pixel and the redirect and serves the report), the
 * worker (which signs the links and writes the events) and the dashboard.
 */

/**
 * How a campaign's events name their recipient.
 * - `anonymous` (the default): by a key made for that campaign, so unique
 *   counts work; the campaign's key is destroyed some days after the send
 *   ends, and then only the counts remain.
 * - `individual`: by the recipient's address, so staff with the permission
 *   see who opened and who clicked which link.
 */
export const TRACKING_MODES = ['anonymous', 'individual'] as const;
export type TrackingMode = (typeof TRACKING_MODES)[number];

/** Days after a campaign's send ends before its tracking key is destroyed (anonymous mode). */
export const TRACKING_KEY_RETENTION_DAYS_DEFAULT = 30;
export const TRACKING_KEY_RETENTION_DAYS_MIN = 1;
export const TRACKING_KEY_RETENTION_DAYS_MAX = 365;

/**
 * The agency's tracking settings (part of PUT /api/admin/agency-settings):
 * whether a new campaign tracks opens and clicks, and how events name people.
 * Every field has its default, so a settings document saved before tracking
 * existed stays valid.
 */
export const trackingSettingsSchema = object({
  opens: boolean().typeError(message('required')).default(true),
  clicks: boolean().typeError(message('required')).default(true),
  mode: oneOfText(TRACKING_MODES).default('anonymous'),
  keyRetentionDays: number()
    .typeError(message('mustBeNumber'))
    .integer(message('mustBeWholeNumber'))
    .min(
      TRACKING_KEY_RETENTION_DAYS_MIN,
      message('minValue', { min: TRACKING_KEY_RETENTION_DAYS_MIN }),
    )
    .max(
      TRACKING_KEY_RETENTION_DAYS_MAX,
      message('maxValue', { max: TRACKING_KEY_RETENTION_DAYS_MAX }),
    )
    .default(TRACKING_KEY_RETENTION_DAYS_DEFAULT),
})
  .typeError(message('required'))
  .default(undefined);
export type TrackingSettings = InferType<typeof trackingSettingsSchema> & { mode: TrackingMode };

export const DEFAULT_TRACKING_SETTINGS: Readonly<TrackingSettings> = {
  opens: true,
  clicks: true,
  mode: 'anonymous',
  keyRetentionDays: TRACKING_KEY_RETENTION_DAYS_DEFAULT,
};

/** The campaign editor's two switches; a campaign saved without them takes the agency's defaults. */
export const campaignTrackingSchema = object({
  opens: boolean().typeError(message('required')).required(message('required')),
  clicks: boolean().typeError(message('required')).required(message('required')),
})
  .typeError(message('required'))
  .default(undefined)
  .optional();

/** A campaign's own choice (the editor's two switches); the agency's defaults fill a new one. */
export interface CampaignTrackingDto {
  opens: boolean;
  clicks: boolean;
  /** Fixed when the send starts (the agency's mode then); null before. */
  mode: TrackingMode | null;
  /** The campaign's key is gone: events can no longer be tied to anyone. */
  keyDestroyed: boolean;
}

/**
 * What the API hands the worker for every open and click it answered, in
 * batches (one job per batch on `campaign-events`). The request's address
 * and user agent were read, judged and dropped: only the verdict and the
 * rule that decided travel on. `id` is unique per event: a batch delivered
 * twice counts once.
 */
export interface TrackingEventRecord {
  id: string;
  kind: 'open' | 'click';
  campaignId: string;
  /** The recipient's key under the campaign's tracking key (22 base64url characters). */
  recipientKey: string;
  /** The language the mail was in (the token says it). */
  locale: Locale;
  /** The link's index in the campaign's link table; null for an open. */
  linkIndex: number | null;
  /** The hidden link only machines follow. */
  trap: boolean;
  /** When the request came (ISO). */
  at: string;
  /** When the mail was sent (ISO, from the token). */
  sentAt: string;
  /**
   * The recipient's source (see `CampaignRecipient.source`), from the token;
   * null for a token signed before sources were kept. Absent in batches of an
   * older API: read as null.
   */
  source?: number | null;
  /** The request's own verdict; the worker may change it when it sees the mail's other events. */
  verdict: 'person' | 'machine' | 'scanner';
  /** The machine rule that decided, or null. */
  rule: string | null;
}

export interface CampaignEventsJob {
  events: TrackingEventRecord[];
}

/** A count of events and of distinct recipients: never shown under one label. */
export interface UniqueAndTotal {
  unique: number;
  total: number;
}

/** One link of the campaign: its address and who followed it. */
export interface CampaignLinkResultDto {
  index: number;
  url: string;
  people: UniqueAndTotal;
  scanners: UniqueAndTotal;
}

/** One hour (the first 48 after the send began) or one day (after) of the timeline. */
export interface CampaignTimelinePointDto {
  /** The bucket's start (ISO). */
  at: string;
  bucket: 'hour' | 'day';
  /** Opens and clicks by people (totals). */
  opens: number;
  clicks: number;
}

export interface CampaignLanguageResultDto {
  locale: Locale;
  delivered: number;
  /** Distinct recipients who opened (people, implied included) and clicked (people). */
  opened: number;
  clicked: number;
}

/**
 * Where a campaign's recipients came from. A campaign to lists has one
 * source per list, in the order of its `listIds` (source `i` is `listIds[i]`);
 * a campaign to segments one per segment, in the order of its `segmentIds`;
 * any other campaign has two, enquiry contacts (0) and newsletter
 * subscribers (1). A recipient found in several sources (several targeted
 * lists, or a contact who also subscribed) counts under the first the audience
 * walk met: for `all`, the contacts (walked first); for lists, the list of
 * the first of its memberships the store returned; for segments, the first
 * segment (in `segmentIds` order) whose rule matches them.
 */
export const CAMPAIGN_SOURCE_KINDS = [
  'list',
  'segment',
  'contacts',
  'subscribers',
  'unknown',
] as const;
export type CampaignSourceKind = (typeof CAMPAIGN_SOURCE_KINDS)[number];

export const CONTACTS_SOURCE = 0;
export const SUBSCRIBERS_SOURCE = 1;
/** The most sources a campaign has: a source's place travels in one byte of a tracking token. */
export const CAMPAIGN_SOURCES_MAX = 255;

/**
 * A source's counter key (`s0`, `s1`…), or `unknown` for a recipient whose
 * source was not kept (a roster or a token made before sources were).
 */
export const campaignSourceKeyOf = (source: number | null | undefined): string =>
  typeof source === 'number' &&
  Number.isInteger(source) &&
  source >= 0 &&
  source < CAMPAIGN_SOURCES_MAX
    ? `s${source}`
    : 'unknown';

/** One source of the audience: its mails, and the people who opened and clicked. */
export interface CampaignSourceResultDto {
  kind: CampaignSourceKind;
  /** The list (kind `list`); null for any other kind. */
  listId: string | null;
  /** The list's name now; null for any other kind, and once the list is deleted. */
  listName: string | null;
  /** The segment (kind `segment`); null for any other kind. */
  segmentId: string | null;
  /** The segment's name now; null for any other kind, and once the segment is deleted. */
  segmentName: string | null;
  /** The first round's mails to recipients of this source (as for the languages). */
  delivered: number;
  /** Distinct recipients who opened (people, implied included) and clicked (people). */
  opened: number;
  clicked: number;
  /**
   * `opened` and `clicked` over `delivered` (0..100, one decimal): null while
   * nothing was delivered from this source, and for a kind not tracked.
   */
  rates: CampaignRatesDto;
}

/**
 * GET /api/admin/campaigns/{id}/report. Rates are over delivered, people
 * only, 0..100 with one decimal; null while nothing was delivered, and for a
 * kind (opens, clicks) the campaign did not track. People and
 * machines are reported side by side and never added together.
 */
export interface CampaignReportDto {
  id: string;
  name: string;
  tracking: CampaignTrackingDto;
  delivery: {
    sent: number;
    failed: number;
    /** Sent less the bounced. */
    delivered: number;
    bounced: { hard: number; soft: number };
    complaints: number;
    /**
     * Recipients who left through this campaign's mail (its unsubscribe link
     * or the one-click List-Unsubscribe), each once; test sends never count.
     */
    unsubscribes: number;
  };
  opens: {
    people: UniqueAndTotal;
    machines: UniqueAndTotal;
    /** People who clicked without a counted open: their open is implied, and included in people's unique. */
    implied: number;
  };
  clicks: { people: UniqueAndTotal; scanners: UniqueAndTotal };
  rates: { open: number | null; click: number | null };
  timeline: CampaignTimelinePointDto[];
  links: CampaignLinkResultDto[];
  languages: CampaignLanguageResultDto[];
  /** One row per targeted list (or per source), then "unknown source" when anything counted there. */
  sources: CampaignSourceResultDto[];
  startedAt: string | null;
  finishedAt: string | null;
}

/** A campaign list row's results: people's unique open and click rates over delivered. */
export interface CampaignRatesDto {
  open: number | null;
  click: number | null;
}

/** Which recipients the individual results list: all who did something, or those who opened or clicked. */
export const PERSON_RESULT_FILTERS = ['any', 'opened', 'clicked'] as const;
export type PersonResultFilter = (typeof PERSON_RESULT_FILTERS)[number];

/**
 * GET /api/admin/campaigns/{id}/report/people (individual mode, with the
 * `campaigns:individual-results` permission): one recipient's activity.
 * Machines' events are not listed; the counts are people's.
 */
export interface CampaignPersonResultDto {
  email: string;
  locale: Locale;
  /** A person's open was seen, or implied by a click. */
  opened: boolean;
  /** The open was implied by a click (no pixel was loaded). */
  openImplied: boolean;
  firstOpenAt: string | null;
  opens: number;
  /** The links this person followed, each once, in the order first clicked. */
  clickedLinks: { index: number; url: string; at: string }[];
  clicks: number;
}

/** GET campaignReportPeople: a page of the recipients who did something, by address. */
export const campaignPeopleQuerySchema = listQuerySchema({
  sortFields: ['email'] as const,
  defaultSort: 'email',
  filters: { filter: oneOfText(PERSON_RESULT_FILTERS).default('any') },
});
export type CampaignPeopleQuery = InferType<typeof campaignPeopleQuerySchema>;

/** GET campaignReportPeopleExport: the same rows, all of them, as CSV. */
export const campaignPeopleExportQuerySchema = object({
  filter: oneOfText(PERSON_RESULT_FILTERS).default('any'),
  search: optionalText(SEARCH_MAX_LENGTH),
});
export type CampaignPeopleExportQuery = InferType<typeof campaignPeopleExportQuerySchema>;

/** The columns of the report's CSV export: one row per figure. */
export const CAMPAIGN_REPORT_EXPORT_COLUMNS = ['section', 'item', 'unique', 'total'] as const;

/** The columns of the individual results' CSV export. */
export const CAMPAIGN_PEOPLE_EXPORT_COLUMNS = [
  'email',
  'locale',
  'opened',
  'openImplied',
  'firstOpenAt',
  'opens',
  'clicks',
  'clickedLinks',
] as const;

/** The job scheduler, on `QUEUE_NAMES.trackingKeyRetention`, that destroys expired tracking keys. */
export const TRACKING_KEY_RETENTION_SCHEDULER_ID = 'tracking-key-retention';
/** How often the retention pass runs: a key goes within an hour of its day. */
export const TRACKING_KEY_RETENTION_EVERY_MS = 3_600_000;
