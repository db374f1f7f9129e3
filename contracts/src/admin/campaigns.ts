import { array, boolean, mixed, object, type InferType } from 'yup';
import { LOCALES, type Locale } from '../locales';
import type { Permission } from '../roles';
import { message, oneOfText, recordId, text } from '../validation/fields';
import { calendarDate, isoInstant, isoInstantProblem } from '../validation/dates';
import { emailAddress, optionalEmailAddress } from '../validation/email-address';
import { TIME_OF_DAY, type SendingWindow } from './agency-time';
import {
  CAMPAIGN_CONTENT_MAX,
  CAMPAIGN_VARIABLES,
  CAMPAIGN_SUBJECT_MAX,
  campaignTranslationSchema,
  optionalTemplateId,
  placeholderFallbacksSchema,
  ratePerMinuteSchema,
  sendingWindowSchema,
  withPlaceholders,
  type CampaignTranslation,
} from './campaign-content';
import { listQuerySchema } from './list-query';
import type { PlaceholderFallbacks } from './placeholder-fallback';
import { CAMPAIGN_NAME_MAX } from './campaign-copy-name';
import type { RecipientMailEventDto } from '../audience/mail-events';
import type { AgencySender } from './agency-settings';
import {
  campaignTrackingSchema,
  type CampaignRatesDto,
  type CampaignTrackingDto,
  type TrackingSettings,
} from './campaign-results';

/**
 * draft → queued (send accepted) → sending → sent, or failed when every
 * recipient failed; paused and cancelled belong to the sending controls.
 * A draft given a time is scheduled until then (or back to draft).
 */
export const CAMPAIGN_STATUSES = [
  'draft',
  'scheduled',
  'queued',
  'sending',
  'paused',
  'sent',
  'failed',
  'cancelled',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/**
 * The statuses in which a campaign's mails are still owed and its send goes
 * on: what pause acts on, what the progress calls active, and what the
 * worker's batches check before each wave. (Paused keeps its debt but waits.)
 */
export const SENDING_STATUSES: readonly CampaignStatus[] = ['queued', 'sending'];

/**
 * A send that has begun and not ended: being sent, or paused until it
 * resumes. Such a campaign cannot be deleted, nor its template changed; a
 * cancel or the end of its round moves it on; the dashboard polls its
 * progress while it is in one of these.
 */
export const UNFINISHED_STATUSES: readonly CampaignStatus[] = [...SENDING_STATUSES, 'paused'];

/**
 * Who receives it: enquiry contacts, confirmed subscribers, both, the
 * members of some lists, or the consenting people of some segments.
 */
export const RECIPIENT_TYPES = ['all', 'contacts', 'subscribers', 'lists', 'segments'] as const;
export type RecipientType = (typeof RECIPIENT_TYPES)[number];

/** Lists one campaign may target at once. */
export const CAMPAIGN_LISTS_MAX = 50;

/** Segments one campaign may target at once: each is one read of the people at send time. */
export const CAMPAIGN_SEGMENTS_MAX = 5;

/** The recipient types that hold enquiry contacts, whom their consent or a lawful basis lets in. */
export type EnquiryRecipientType = Extract<RecipientType, 'contacts' | 'all'>;

export function reachesEnquiries(type: RecipientType): type is EnquiryRecipientType {
  return type === 'contacts' || type === 'all';
}

/**
 * Why a campaign may mail enquiry contacts who did not tick "send me news":
 * `legitimate-interest` (they asked about the agency's services, so similar
 * offers may follow: the soft opt-in) or `contract` (they are clients, and
 * the mail is about the service they buy). None: only those who consented.
 */
export const ENQUIRY_LAWFUL_BASES = ['legitimate-interest', 'contract'] as const;
export type EnquiryLawfulBasis = (typeof ENQUIRY_LAWFUL_BASES)[number];

/**
 * Who may choose a lawful basis for a campaign: mailing people who did not
 * consent is the agency's decision, taken by those who set its settings
 * (admins), not by whoever writes the campaign.
 */
export const LAWFUL_BASIS_PERMISSION: Permission = 'settings:manage';

/** Whom a send walks: a recipient type, and for `lists` or `segments` which ones. */
export interface AudienceTarget {
  recipientType: RecipientType;
  listIds: string[];
  /** For `segments`: which ones, in order (a person's source is its first segment's place). */
  segmentIds?: string[];
  /**
   * For `contacts` and `all`: the basis on which enquiry contacts who did
   * not consent are mailed too; null or missing: only those who consented.
   */
  enquiryLawfulBasis?: EnquiryLawfulBasis | null;
}

/** The lists a campaign targets: required (one or more) for `lists`, ignored otherwise. */
export const campaignListIdsField = () =>
  array(recordId().required(message('idInvalid')))
    .max(CAMPAIGN_LISTS_MAX, message('maxValue', { max: CAMPAIGN_LISTS_MAX }))
    .default([])
    .when('recipientType', {
      is: 'lists',
      then: (schema) => schema.min(1, message('required')),
      otherwise: (schema) => schema.transform(() => []),
    });

/** The segments a campaign targets: required (one to five) for `segments`, ignored otherwise. */
export const campaignSegmentIdsField = () =>
  array(recordId().required(message('idInvalid')))
    .typeError(message('mustBeList'))
    .max(CAMPAIGN_SEGMENTS_MAX, message('maxItems', { max: CAMPAIGN_SEGMENTS_MAX }))
    .default([])
    .when('recipientType', {
      is: 'segments',
      then: (schema) => schema.min(1, message('required')),
      otherwise: (schema) => schema.transform(() => []),
    });

/**
 * The campaign editor. `subject` and `content` are the default language's;
 * `translations` hold the others. The HTML is sanitised again by the server.
 */
export const campaignSchema = object({
  name: text(CAMPAIGN_NAME_MAX).required(message('required')),
  subject: withPlaceholders(CAMPAIGN_SUBJECT_MAX, CAMPAIGN_VARIABLES, { html: false }).required(
    message('required'),
  ),
  content: withPlaceholders(CAMPAIGN_CONTENT_MAX).required(message('required')),
  recipientType: oneOfText(RECIPIENT_TYPES).default('all'),
  listIds: campaignListIdsField(),
  segmentIds: campaignSegmentIdsField(),
  defaultLocale: oneOfText(LOCALES).default('en'),
  translations: array(campaignTranslationSchema)
    .typeError(message('mustBeList'))
    .max(LOCALES.length - 1, message('maxItems', { max: LOCALES.length - 1 }))
    .default([])
    .test('languages-once', message('languageTwice'), (translations, context) => {
      const locales = (translations ?? []).map((translation) => translation.locale);
      const all = [context.parent.defaultLocale, ...locales];
      return new Set(all).size === all.length;
    }),
  /** What a placeholder without its own fallback says, per language (`{{firstName}}` → "there"). */
  placeholderFallbacks: placeholderFallbacksSchema(),
  templateId: optionalTemplateId(),
  sendingWindow: mixed<SendingWindow>()
    .transform((value: unknown) => (value === undefined ? null : value))
    .test('window', (value, context) => {
      if (value === null) return true;
      try {
        sendingWindowSchema.validateSync(value, { abortEarly: true });
        return true;
      } catch (error) {
        const issue = error as { path?: string; message: unknown };
        return context.createError({
          path: `sendingWindow.${issue.path ?? 'days'}`,
          message: issue.message as never,
        });
      }
    })
    .nullable()
    .default(null),
  ratePerMinute: ratePerMinuteSchema(),
  /** One of the From addresses the agency's settings allow; empty: the agency's default. */
  fromAddress: optionalEmailAddress(),
  /** Where replies go; empty: the agency's default Reply-To. */
  replyTo: optionalEmailAddress(),
  /** Count opens (the pixel) and clicks (tracking links); missing: the agency's defaults. */
  tracking: campaignTrackingSchema,
  /** Mail enquiry contacts who did not consent too, on this basis (admins only); null: not. */
  enquiryLawfulBasis: oneOfText(ENQUIRY_LAWFUL_BASES).nullable().default(null),
  /** Shown on the public archive (`/newsletter`) once sent; unpublishing takes it off. */
  publishToArchive: boolean().typeError(message('required')).default(false),
});
export type CampaignInput = Omit<
  InferType<typeof campaignSchema>,
  'translations' | 'placeholderFallbacks'
> & {
  translations: CampaignTranslation[];
  placeholderFallbacks: PlaceholderFallbacks;
  defaultLocale: Locale;
};

/** A campaign's subject and content per language: the default one always there. */
export type CampaignLanguages = Partial<Record<Locale, { subject: string; content: string }>>;

export const CAMPAIGN_SORT_FIELDS = ['name', 'createdAt', 'status'] as const;
export const campaignListQuerySchema = listQuerySchema({
  sortFields: CAMPAIGN_SORT_FIELDS,
  defaultSort: '-createdAt',
  filters: { status: oneOfText(CAMPAIGN_STATUSES).optional() },
});
export type CampaignListQuery = InferType<typeof campaignListQuerySchema>;

export interface CampaignDto {
  id: string;
  name: string;
  subject: string;
  content: string;
  recipientType: RecipientType;
  /** The lists it targets when `recipientType` is `lists`; empty otherwise. */
  listIds: string[];
  /** The segments it targets when `recipientType` is `segments`; empty otherwise. */
  segmentIds: string[];
  defaultLocale: Locale;
  translations: CampaignTranslation[];
  /** Each language's default fallback (the shipped ones where the campaign set none). */
  placeholderFallbacks: PlaceholderFallbacks;
  /** null: the built-in default template. */
  templateId: string | null;
  /** When a scheduled campaign will go (ISO); null otherwise. */
  scheduledAt: string | null;
  sendingWindow: SendingWindow | null;
  ratePerMinute: number | null;
  /** The From address it chose; null: the agency's default sender. */
  fromAddress: string | null;
  /** Its own Reply-To; null: the agency's. */
  replyTo: string | null;
  tracking: CampaignTrackingDto;
  /** The basis on which enquiry contacts who did not consent are mailed too; null: they are not. */
  enquiryLawfulBasis: EnquiryLawfulBasis | null;
  /** Whether the public archive shows it (only once it is `sent`). */
  publishToArchive: boolean;
  /** People's open and click rates once mail was delivered; null before the send. */
  rates: CampaignRatesDto | null;
  status: CampaignStatus;
  /** Recipients counted when dispatch starts; 0 before. */
  total: number;
  sentCount: number;
  failedCount: number;
  queuedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CampaignSendResponse {
  campaign: CampaignDto;
}

/**
 * How many distinct addresses each recipient type reaches now: what the send
 * confirmation shows, counted by the same walk the send makes. An address
 * that unsubscribed or is suppressed is never counted. `lists` counts the
 * lists asked for (`?listIds=a,b`), 0 when none are.
 */
export type CampaignAudienceDto = Record<RecipientType, number> & {
  /**
   * For `contacts` and `all`: the addresses left out because none of their
   * enquiries ticked "send me news", which a lawful basis would add to
   * that count (an address that is also a confirmed subscriber is not left
   * out of `all`).
   */
  withoutConsent: Record<EnquiryRecipientType, number>;
};

/**
 * `?listIds=a,b`: the lists an audience query names, in one parameter of
 * comma-separated ids (`listIdsOfQuery` splits it).
 */
const audienceListIdsParam = () =>
  text(CAMPAIGN_LISTS_MAX * 25)
    .optional()
    .test(
      'record-ids',
      message('idInvalid'),
      (value) =>
        value === undefined || value === '' || /^[0-9a-f]{24}(,[0-9a-f]{24})*$/i.test(value),
    );

/** `?segmentIds=a,b`: the segments an audience query names, as `listIds` names lists. */
const audienceSegmentIdsParam = () =>
  text(CAMPAIGN_SEGMENTS_MAX * 25)
    .optional()
    .test(
      'record-ids',
      message('idInvalid'),
      (value) =>
        value === undefined || value === '' || /^[0-9a-f]{24}(,[0-9a-f]{24}){0,4}$/i.test(value),
    );

/** The ids of a valid `listIds` query parameter, as the store writes them. */
export function listIdsOfQuery(param: string | undefined): string[] {
  return param ? param.toLowerCase().split(',') : [];
}

export const campaignAudienceQuerySchema = object({
  listIds: audienceListIdsParam(),
  segmentIds: audienceSegmentIdsParam(),
});
/** POST /api/admin/campaigns/{id}/test: one address, outside the ledger, in one language. */
export const campaignTestSendSchema = object({
  email: emailAddress(),
  locale: oneOfText(LOCALES).optional(),
});
export type CampaignTestSendInput = InferType<typeof campaignTestSendSchema>;

/**
 * What a test send's placeholders say, in the test's language: staff
 * accounts carry no name, so a test reads as a named recipient's mail would
 * ("Dear Ada,") rather than with holes or the nameless fallback. `{{email}}`
 * is the address the test goes to.
 */
export const TEST_SEND_SAMPLE_NAMES: Readonly<
  Record<Locale, { firstName: string; lastName: string }>
> = {
  en: { firstName: 'Ada', lastName: 'Lovelace' },
  fr: { firstName: 'Camille', lastName: 'Martin' },
  ar: { firstName: 'أمينة', lastName: 'الصالح' },
};

/**
 * POST /api/admin/campaigns/{id}/schedule: when a draft (or a scheduled
 * campaign, to move it) goes, as an ISO instant with its offset; the
 * dashboard enters it on the agency's clock. The day must exist as written
 * (no 30 February), within the years dates may name, and in the future.
 */
export const campaignScheduleSchema = object({
  scheduledAt: isoInstant()
    .required(message('required'))
    .test('future', message('scheduleInPast'), (value) =>
      value === undefined || isoInstantProblem(value) !== null
        ? true
        : Date.parse(value) > Date.now(),
    ),
});
export type CampaignScheduleInput = InferType<typeof campaignScheduleSchema>;

/**
 * The schedule dialog's fields, a day and a time on the agency's clock: the
 * day is checked as the API checks the instant made of them.
 */
export const campaignScheduleFormSchema = object({
  date: calendarDate().required(message('required')),
  time: text(5)
    .required(message('required'))
    .matches(TIME_OF_DAY, { message: message('timeOfDay'), excludeEmptyString: true }),
});
export type CampaignScheduleFormInput = InferType<typeof campaignScheduleFormSchema>;

/** GET /api/admin/campaigns/sample-recipients: whom the preview may be filled in for. */
export const campaignSampleQuerySchema = object({
  recipientType: oneOfText(RECIPIENT_TYPES).default('all'),
  /** For `lists`: whose members; none gives an empty sample. */
  listIds: audienceListIdsParam(),
  /** For `segments`: whose people; none gives an empty sample. */
  segmentIds: audienceSegmentIdsParam(),
});

/** How many of a campaign's audience get each language, and in all. */
export interface CampaignLanguageAudienceDto {
  total: number;
  languages: Record<Locale, number>;
}

/** What the editor needs from the server's settings. */
export interface CampaignSettingsDto {
  /** The agency's clock: schedules and sending windows are entered in it. */
  timeZone: string;
  /** `{{senderName}}`: the display name of the sender's address. */
  senderName: string;
  /** Mails per minute across all campaigns; null when there is no cap. */
  maxRatePerMinute: number | null;
  /** The From addresses a campaign may choose (the agency's settings), and the default one. */
  senders: AgencySender[];
  defaultFrom: string;
  /** The agency's Reply-To, which a campaign without its own uses. */
  replyTo: string;
  /** The language a new campaign is written in first. */
  defaultLocale: Locale;
  /** What a new campaign tracks, and how events name people (the agency's settings). */
  tracking: TrackingSettings;
}

/** GET /api/admin/campaigns/{id}/progress: what a progress bar needs, one cheap read. */
export interface CampaignProgressDto {
  id: string;
  status: CampaignStatus;
  total: number;
  sentCount: number;
  failedCount: number;
  /** total - sentCount - failedCount: still to be settled (also the failed being resent). */
  pendingCount: number;
  /** (sentCount + failedCount) / total, 0..100, one decimal; 0 while total is 0. */
  percent: number;
  /** Recipients settled (sent or failed) per second over the last minute. */
  ratePerSecond: number;
  /** While the campaign waits outside its sending window: when it opens (ISO); else null. */
  windowOpensAt: string | null;
  /** Which resend this is: 1 for the first send. */
  round: number;
  startedAt: string | null;
  finishedAt: string | null;
}

export const LEDGER_STATES = ['pending', 'sent', 'failed'] as const;
export type LedgerState = (typeof LEDGER_STATES)[number];

/** One recipient's line in a campaign's ledger. */
export interface CampaignRecipientDto {
  email: string;
  state: LedgerState;
  /** The SMTP server's reply when it refused the mail. */
  reason: string | null;
  /** Attempts of the latest round; more than 1 means it was retried or in flight at a crash. */
  attempts: number;
  round: number;
  at: string;
  /** A bounce or complaint this recipient's mail of this campaign brought back, the latest. */
  mailEvent: RecipientMailEventDto | null;
}

export const campaignRecipientQuerySchema = listQuerySchema({
  sortFields: ['email'] as const,
  defaultSort: 'email',
  filters: { state: oneOfText(LEDGER_STATES).optional() },
});
export type CampaignRecipientQuery = InferType<typeof campaignRecipientQuerySchema>;
