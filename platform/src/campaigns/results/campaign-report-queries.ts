/**
 * The campaign report: the campaign (its send's figures), its results
 * document (every counter kept on write), its bounces and complaints and its
 * lists' names: four small reads, never a scan of events. The languages' mails
 * come from the first round's roster, counted once by the event writer and
 * kept on the results document (only the writer writes that document: see its
 * model); the sources' mails are counted by the dispatch and kept on the
 * campaign, as are the unsubscribes it brought.
 */
import { Types } from 'mongoose';
import {
  CONTACTS_SOURCE,
  LOCALES,
  SUBSCRIBERS_SOURCE,
  campaignSourceKeyOf,
  type CampaignLanguageResultDto,
  type CampaignSourceKind,
  type CampaignSourceResultDto,
  type CampaignLinkResultDto,
  type CampaignRatesDto,
  type CampaignTrackingDto,
  type CampaignReportDto,
  type CampaignTimelinePointDto,
  type Locale,
  type UniqueAndTotal,
} from '@agency/contracts';
import {
  countCampaignMailEvents,
  noCampaignMailEvents,
  type CampaignMailEventCounts,
} from '../../audience/mail-event-queries';
import { findActiveListNames } from '../../audience/list-existence';
import { findSegmentNames } from '../../audience/segments/segment-store';
import { DomainError } from '../../domain-error';
import { isoOrNull } from '../../list-pages';
import { CampaignBatchModel } from '../campaign-batch.model';
import { toCampaignTrackingDto, type StoredCampaign } from '../campaign-dto';
import { CampaignModel } from '../campaign.model';
import { resultsCollection, type CounterTree } from './campaign-results.model';

/** The counter at `path` (dot-separated), 0 when none was kept. */
export const counterAt = (tree: CounterTree | undefined, path: string): number => {
  let node: number | CounterTree | undefined = tree;
  for (const segment of path.split('.')) {
    node = typeof node === 'object' ? node[segment] : undefined;
  }
  return typeof node === 'number' ? node : 0;
};

const uniqueAndTotal = (tree: CounterTree | undefined, path: string): UniqueAndTotal => ({
  unique: counterAt(tree, `${path}.unique`),
  total: counterAt(tree, `${path}.total`),
});

/** A share of delivered in percent with one decimal; null while nothing was delivered. */
export const rateOf = (count: number, delivered: number): number | null =>
  delivered > 0 ? Math.round((count / delivered) * 1000) / 10 : null;

/** Sent less the bounced (never below 0: a bounce can come from an earlier round's mail). */
const deliveredOf = (sent: number, events: CampaignMailEventCounts): number =>
  Math.max(sent - events.hardBounces - events.softBounces, 0);

/** Which kinds the campaign tracked: a kind it did not track has no rate (not 0%). */
type TrackedKinds = Pick<CampaignTrackingDto, 'opens' | 'clicks'>;

export const ratesOf = (
  tree: CounterTree | undefined,
  delivered: number,
  tracked: TrackedKinds,
): CampaignRatesDto => ({
  open: tracked.opens ? rateOf(counterAt(tree, 'opens.people.unique'), delivered) : null,
  click: tracked.clicks ? rateOf(counterAt(tree, 'clicks.people.unique'), delivered) : null,
});

const BUCKET_KEY = /^([hd])(\d{4})(\d{2})(\d{2})(\d{2})?$/;

/** A timeline bucket's key (`h2026050410`, `d20260506`) as the report's point, or null when malformed. */
const timelinePointOf = (key: string, tree: CounterTree): CampaignTimelinePointDto | null => {
  const match = BUCKET_KEY.exec(key);
  if (!match) return null;
  const [, kind, year, month, day, hour] = match;
  return {
    at: new Date(`${year}-${month}-${day}T${hour ?? '00'}:00:00.000Z`).toISOString(),
    bucket: kind === 'h' ? 'hour' : 'day',
    opens: counterAt(tree, `${key}.opens`),
    clicks: counterAt(tree, `${key}.clicks`),
  };
};

const timelineOf = (timeline: CounterTree | number | undefined): CampaignTimelinePointDto[] => {
  if (typeof timeline !== 'object') return [];
  return Object.keys(timeline)
    .flatMap((key) => timelinePointOf(key, timeline) ?? [])
    .sort((a, b) => a.at.localeCompare(b.at));
};

const linksOf = (tree: CounterTree | undefined, urls: readonly string[]): CampaignLinkResultDto[] =>
  urls.map((url, index) => ({
    index,
    url,
    people: uniqueAndTotal(tree, `links.l${index}.people`),
    scanners: uniqueAndTotal(tree, `links.l${index}.scanners`),
  }));

/** The first round's recipients per language: everyone the campaign went to, each once. */
export async function mailsPerLanguage(
  campaignId: Types.ObjectId,
): Promise<Record<string, number>> {
  const rows = await CampaignBatchModel.aggregate<{ _id: string; count: number }>([
    { $match: { campaign: campaignId, round: 1 } },
    { $unwind: '$recipients' },
    { $group: { _id: '$recipients.locale', count: { $sum: 1 } } },
  ]);
  return Object.fromEntries(rows.map(({ _id, count }) => [_id, count]));
}

const languagesOf = (
  tree: CounterTree | undefined,
  mails: Record<string, number>,
): CampaignLanguageResultDto[] =>
  LOCALES.map((locale: Locale) => ({
    locale,
    delivered: mails[locale] ?? 0,
    opened: counterAt(tree, `languages.${locale}.opened`),
    clicked: counterAt(tree, `languages.${locale}.clicked`),
  })).filter((row) => row.delivered > 0 || row.opened > 0 || row.clicked > 0);

/** What a source's row adds to its kind: the list or segment it is, if it is one. */
type SourceOfRow = Pick<
  CampaignSourceResultDto,
  'kind' | 'listId' | 'listName' | 'segmentId' | 'segmentName'
>;

const sourceRow = (
  tree: CounterTree | undefined,
  mails: Readonly<Record<string, number>>,
  key: string,
  { source, tracked }: { source: SourceOfRow; tracked: TrackedKinds },
): CampaignSourceResultDto => {
  const delivered = mails[key] ?? 0;
  const opened = counterAt(tree, `sources.${key}.opened`);
  const clicked = counterAt(tree, `sources.${key}.clicked`);
  return {
    ...source,
    delivered,
    opened,
    clicked,
    rates: {
      open: tracked.opens ? rateOf(opened, delivered) : null,
      click: tracked.clicks ? rateOf(clicked, delivered) : null,
    },
  };
};

const kindOnly = (kind: CampaignSourceKind): SourceOfRow => ({
  kind,
  listId: null,
  listName: null,
  segmentId: null,
  segmentName: null,
});

/** The names of the lists or segments a campaign targets, by id (empty for any other target). */
type TargetNames = ReadonlyMap<string, string>;

const listSource = (listId: string, listName: string | null): SourceOfRow => ({
  ...kindOnly('list'),
  listId,
  listName,
});

const segmentSource = (segmentId: string, segmentName: string | null): SourceOfRow => ({
  ...kindOnly('segment'),
  segmentId,
  segmentName,
});

/** One row's source per id of `ids`, in their order: that order is the sources' places. */
function namedSources(
  ids: readonly unknown[],
  names: TargetNames,
  sourceOf: (id: string, name: string | null) => SourceOfRow,
): { place: number; source: SourceOfRow }[] {
  return ids.map((raw, place) => {
    const id = String(raw);
    return { place, source: sourceOf(id, names.get(id) ?? null) };
  });
}

/** The sources a campaign's audience is walked from, each with its place (see CAMPAIGN_SOURCE_KINDS). */
function sourcesOfTarget(
  campaign: Pick<StoredCampaign, 'recipientType' | 'listIds' | 'segmentIds'>,
  names: TargetNames,
): { place: number; source: SourceOfRow }[] {
  if (campaign.recipientType === 'lists') {
    return namedSources(campaign.listIds ?? [], names, listSource);
  }
  if (campaign.recipientType === 'segments') {
    return namedSources(campaign.segmentIds ?? [], names, segmentSource);
  }
  const contacts = { place: CONTACTS_SOURCE, source: kindOnly('contacts') };
  const subscribers = { place: SUBSCRIBERS_SOURCE, source: kindOnly('subscribers') };
  if (campaign.recipientType === 'contacts') return [contacts];
  if (campaign.recipientType === 'subscribers') return [subscribers];
  return [contacts, subscribers];
}

/**
 * One row per source the campaign targets (a deleted list keeps its row,
 * without a name), then the recipients whose source is not known (mails
 * sent before sources were kept) when anything was counted there.
 */
const sourcesOf = (
  tree: CounterTree | undefined,
  campaign: Pick<StoredCampaign, 'recipientType' | 'listIds' | 'segmentIds' | 'mailsPerSource'>,
  { names, tracked }: { names: TargetNames; tracked: TrackedKinds },
): CampaignSourceResultDto[] => {
  const mails = (campaign.mailsPerSource ?? {}) as Record<string, number>;
  const targeted = sourcesOfTarget(campaign, names).map(({ place, source }) =>
    sourceRow(tree, mails, campaignSourceKeyOf(place), { source, tracked }),
  );
  const unknown = sourceRow(tree, mails, campaignSourceKeyOf(null), {
    source: kindOnly('unknown'),
    tracked,
  });
  const counted = unknown.delivered > 0 || unknown.opened > 0 || unknown.clicked > 0;
  return counted ? [...targeted, unknown] : targeted;
};

type ReportedCampaign = Pick<
  StoredCampaign,
  | 'name'
  | 'tracking'
  | 'sentCount'
  | 'failedCount'
  | 'startedAt'
  | 'finishedAt'
  | 'unsubscribeCount'
>;

const deliveryOf = (
  campaign: ReportedCampaign,
  events: CampaignMailEventCounts,
): CampaignReportDto['delivery'] => ({
  sent: campaign.sentCount,
  failed: campaign.failedCount,
  delivered: deliveredOf(campaign.sentCount, events),
  bounced: { hard: events.hardBounces, soft: events.softBounces },
  complaints: events.complaints,
  unsubscribes: campaign.unsubscribeCount ?? 0,
});

/** The report's figures from the results document's counters. */
const resultsOf = (tree: CounterTree | undefined, delivered: number, tracked: TrackedKinds) => ({
  opens: {
    people: uniqueAndTotal(tree, 'opens.people'),
    machines: uniqueAndTotal(tree, 'opens.machines'),
    implied: counterAt(tree, 'opens.implied'),
  },
  clicks: {
    people: uniqueAndTotal(tree, 'clicks.people'),
    scanners: uniqueAndTotal(tree, 'clicks.scanners'),
  },
  rates: ratesOf(tree, delivered, tracked),
  timeline: timelineOf(tree?.timeline),
});

/** The current names of the lists or segments a campaign targets: one read by `_id`. */
function targetNamesOf(
  campaign: Pick<StoredCampaign, 'recipientType' | 'listIds' | 'segmentIds'>,
): Promise<TargetNames> {
  if (campaign.recipientType === 'lists') return findActiveListNames(campaign.listIds ?? []);
  if (campaign.recipientType === 'segments') return findSegmentNames(campaign.segmentIds ?? []);
  return Promise.resolve(new Map());
}

/** GET /api/admin/campaigns/{id}/report. */
export async function readCampaignReport(id: string): Promise<CampaignReportDto> {
  if (!Types.ObjectId.isValid(id)) throw new DomainError('NOT_FOUND', 'No campaign with this id');
  const objectId = new Types.ObjectId(id);
  const [campaign, results, mailEvents] = await Promise.all([
    CampaignModel.findById(objectId, { content: 0, translations: 0 }).lean(),
    resultsCollection().findOne({ _id: objectId }),
    countCampaignMailEvents([id]),
  ]);
  if (!campaign) throw new DomainError('NOT_FOUND', 'No campaign with this id');
  const names = await targetNamesOf(campaign);
  const tree = results?.counters;
  const delivery = deliveryOf(campaign, mailEvents.get(id) ?? noCampaignMailEvents());
  const tracking = toCampaignTrackingDto(campaign);
  // The event writer keeps them once the first round is in the ledger; until then, counted here.
  const mails = results?.mailsPerLanguage ?? (await mailsPerLanguage(objectId));
  return {
    id,
    name: campaign.name,
    tracking,
    delivery,
    ...resultsOf(tree, delivery.delivered, tracking),
    links: linksOf(tree, campaign.tracking?.links ?? []),
    languages: languagesOf(tree, mails),
    sources: sourcesOf(tree, campaign, { names, tracked: tracking }),
    startedAt: isoOrNull(campaign.startedAt),
    finishedAt: isoOrNull(campaign.finishedAt),
  };
}

/**
 * The open and click rates of a page of campaigns: one read of their
 * results documents and one of their bounces, whatever the page's size.
 */
export async function readCampaignRates(
  campaigns: readonly { id: string; sentCount: number; tracking: TrackedKinds }[],
): Promise<Map<string, CampaignRatesDto>> {
  if (campaigns.length === 0) return new Map();
  const ids = campaigns.map(({ id }) => new Types.ObjectId(id));
  const [results, mailEvents] = await Promise.all([
    resultsCollection()
      .find(
        { _id: { $in: ids } },
        { projection: { 'counters.opens.people.unique': 1, 'counters.clicks.people.unique': 1 } },
      )
      .toArray(),
    countCampaignMailEvents(campaigns.map(({ id }) => id)),
  ]);
  const trees = new Map(results.map(({ _id, counters }) => [String(_id), counters]));
  return new Map(
    campaigns.map(({ id, sentCount, tracking }) => {
      const delivered = deliveredOf(sentCount, mailEvents.get(id) ?? noCampaignMailEvents());
      return [id, ratesOf(trees.get(id), delivered, tracking)];
    }),
  );
}
