/**
 * The event writer: the worker hands it each batch of opens and clicks the
 * API answered. Per recipient it merges the new events into the recipient's
 * activity document (each event once, by id), judges them all again, and
 * moves the campaign's counters by the change in what the recipients add:
 * one `$inc` per campaign per batch.
 *
 * Batches are written one at a time (the worker sets the queue's global
 * concurrency to 1), not with a compare-and-set per document: FerretDB 1.x
 * applies an update by reading the document and writing it back whole, and
 * does not serialise two of them (embedded-store.ts, `oneWriterPerDocument`),
 * so two `$inc` of one results document at once can lose one, and a
 * version filter read in the same unguarded step guards nothing. One writer
 * at a time is right on both stores, and a batch's few writes (one read of
 * its recipients, their writes, one `$inc` per campaign) keep it fast.
 *
 * Without transactions the `$inc` is a write apart from the recipients':
 * each recipient's change is first stored on its document as `pending`
 * under the batch's id; the `$inc` sets the batch's mark on the results
 * document in the same write; then the pending changes and the mark are
 * cleared. A batch retried after a crash finds its mark (the `$inc` landed:
 * only clear) or its pending changes (it did not: they are added again). A
 * batch delivered twice finds its events stored and adds nothing.
 */
import { Types, trusted } from 'mongoose';
import {
  CAMPAIGN_SOURCES_MAX,
  LOCALES,
  type Locale,
  type TrackingEventRecord,
} from '@agency/contracts';
import { chunksOf, UPDATE_STATEMENTS_PER_COMMAND } from '../../batched-writes';
import { isDuplicateKeyError } from '../../database-errors';
import type { Logger } from '../../logger';
import { normalizeEmail } from '../../mail/email-address';
import { CampaignBatchModel } from '../campaign-batch.model';
import { CampaignModel } from '../campaign.model';
import { recipientKeyOf } from '../tracking/recipient-key';
import { mailsPerLanguage } from './campaign-report-queries';
import {
  rejudgeRecipientEvents,
  type StoredTrackingEvent,
} from '../tracking/stored-event-verdicts';
import { clearPendingChanges, readActivitiesById } from './activity-by-id';
import {
  activityCollection,
  campaignActivityId,
  resultsCollection,
  type CampaignActivity,
  type CampaignResults,
  type CounterEntry,
} from './campaign-results.model';
import {
  contributionOf,
  countersOfEntries,
  differenceOf,
  entriesOfCounters,
  type Counters,
} from './recipient-contribution';

/** Events kept per recipient: enough for any person; a machine hammering a mail stops counting here. */
export const ACTIVITY_EVENT_LIMIT = 200;

/** What the writer needs of a campaign, read once per batch. */
interface TrackedCampaign {
  id: string;
  objectId: Types.ObjectId;
  startedAt: Date | null;
  /** In individual mode, the addresses of the ledger by recipient key. */
  emails: Map<string, string> | null;
  /** The batches whose `$inc` landed and whose pending changes are still to clear. */
  marks: Record<string, number>;
}

export interface EventWriteReport {
  /** Events stored for the first time. */
  counted: number;
  /** Events already stored (a batch delivered again). */
  repeated: number;
  /** Malformed events, and events of a campaign that does not exist or whose key is destroyed. */
  dropped: number;
}

export interface CampaignEventWriter {
  /** Writes one batch; `batchId` is the same each time the batch is delivered. */
  write(events: readonly TrackingEventRecord[], batchId: string): Promise<EventWriteReport>;
}

const groupBy = <T>(items: readonly T[], keyOf: (item: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
};

const RECIPIENT_KEY = /^[A-Za-z0-9_-]{22}$/;
const VERDICTS: readonly string[] = ['person', 'machine', 'scanner'];
const isTime = (value: unknown): boolean =>
  typeof value === 'string' && Number.isFinite(Date.parse(value));
/** A source as a token names it: a place of one byte; null or absent (an older API) when unknown. */
const isSource = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (Number.isInteger(value) && (value as number) >= 0 && (value as number) < CAMPAIGN_SOURCES_MAX);

/**
 * Whether an event has the shape the API records: anything else (a job
 * added by hand, an older API) is dropped, never written into a counter's
 * path (a language, a link) or an activity document.
 */
export const isWellFormedEvent = (event: TrackingEventRecord): boolean =>
  typeof event.id === 'string' &&
  event.id.length > 0 &&
  (event.kind === 'open' || event.kind === 'click') &&
  typeof event.recipientKey === 'string' &&
  RECIPIENT_KEY.test(event.recipientKey) &&
  (LOCALES as readonly string[]).includes(event.locale) &&
  (event.kind === 'open'
    ? event.linkIndex === null
    : Number.isInteger(event.linkIndex) && (event.linkIndex ?? -1) >= 0) &&
  typeof event.trap === 'boolean' &&
  isSource(event.source) &&
  isTime(event.at) &&
  isTime(event.sentAt) &&
  VERDICTS.includes(event.verdict) &&
  (event.rule === null || typeof event.rule === 'string');

/** A batch's mark's name on the results document: its id as a field name (no dots, no `$`). */
const markNameOf = (batchId: string): string => batchId.replace(/[^A-Za-z0-9_-]/g, '_');

const storedEventOf = (event: TrackingEventRecord): StoredTrackingEvent => ({
  id: event.id,
  kind: event.kind,
  linkIndex: event.linkIndex,
  trap: event.trap,
  at: event.at,
  sentAt: event.sentAt,
  verdict: event.verdict,
  rule: event.rule,
});

/** A campaign's ledger addresses by recipient key, and the ledger batches already hashed. */
interface AddressBook {
  emails: Map<string, string>;
  batches: Set<string>;
}

/** Individual campaigns whose addresses a worker keeps hashed; the least recent goes first. */
const ADDRESS_BOOKS_KEPT = 20;

/**
 * Hashes the ledger batches not seen yet into the book: each address once
 * per campaign key, however many events come. Events arrive while the send
 * still adds batches, so a recipient not in the book reads the new ones.
 */
async function readNewLedgerBatches(campaignId: string, key: string, book: AddressBook) {
  const batches = await CampaignBatchModel.find(
    { campaign: new Types.ObjectId(campaignId), _id: trusted({ $nin: [...book.batches] }) },
    { recipients: 1 },
  ).lean();
  for (const batch of batches) {
    book.batches.add(batch._id);
    for (const { email } of batch.recipients) {
      book.emails.set(recipientKeyOf(key, email), normalizeEmail(email));
    }
  }
}

/** The recipient's events with the new ones, each once, the earliest kept. */
function mergedEvents(
  known: readonly StoredTrackingEvent[],
  incoming: readonly TrackingEventRecord[],
): { events: StoredTrackingEvent[]; added: number } {
  const ids = new Set(known.map((event) => event.id));
  const fresh = incoming.filter((event) => !ids.has(event.id) && ids.add(event.id));
  const events = [...known, ...fresh.map(storedEventOf)]
    .sort((a, b) => a.at.localeCompare(b.at))
    .slice(0, ACTIVITY_EVENT_LIMIT);
  return { events, added: events.length - known.length };
}

/** A change stored by a batch whose `$inc` never landed: it is carried into this batch's. */
const unappliedOf = (stored: CampaignActivity | null, campaign: TrackedCampaign): Counters =>
  stored?.pending && campaign.marks[markNameOf(stored.pending.batch)] === undefined
    ? countersOfEntries(stored.pending.delta)
    : new Map();

const sumInto = (total: Counters, delta: Counters): void => {
  for (const [path, value] of delta) total.set(path, (total.get(path) ?? 0) + value);
};

interface RecipientChange {
  /** The activity document as it is to be stored; null when nothing changes. */
  activity: CampaignActivity | null;
  added: number;
  delta: Counters;
}

/** One recipient's new state and what it moves in the counters (nothing written yet). */
function recipientChange(
  campaign: TrackedCampaign,
  recipientKey: string,
  stored: CampaignActivity | null,
  incoming: readonly TrackingEventRecord[],
  batchId: string,
): RecipientChange {
  const { events, added } = mergedEvents(stored?.events ?? [], incoming);
  const carried = unappliedOf(stored, campaign);
  if (added === 0 && carried.size === 0) return { activity: null, added: 0, delta: new Map() };
  const locale = (stored?.locale ?? incoming[0]?.locale ?? 'en') as Locale;
  // A recipient's tokens all name one source; a document older than sources takes the events'.
  const source = stored?.source ?? incoming.find((event) => event.source != null)?.source ?? null;
  const judged = rejudgeRecipientEvents(events);
  const after = contributionOf(judged, { locale, source }, campaign.startedAt);
  const delta = differenceOf(countersOfEntries(stored?.contribution ?? []), after);
  sumInto(delta, carried);
  const pending = delta.size > 0 ? { batch: batchId, delta: entriesOfCounters(delta) } : null;
  const activity: CampaignActivity = {
    _id: campaignActivityId(campaign.id, recipientKey),
    campaign: campaign.objectId,
    recipientKey,
    email: stored?.email ?? campaign.emails?.get(recipientKey) ?? null,
    locale,
    source,
    events,
    opened: after.has('opens.people.unique'),
    clicked: after.has('clicks.people.unique'),
    contribution: entriesOfCounters(after),
    pending,
  };
  return { activity, added, delta };
}

/** `$inc` paths under `counters.` for a change. */
const incrementsOf = (delta: readonly CounterEntry[]): Record<string, number> =>
  Object.fromEntries(delta.map(({ path, value }) => [`counters.${path}`, value]));

/** Adds the batch's change once (its mark goes in the same write), then clears what it carried. */
async function applyBatch(
  campaign: TrackedCampaign,
  batchId: string,
  delta: Counters,
  pendingIds: readonly string[],
): Promise<void> {
  const mark = `marks.${markNameOf(batchId)}`;
  if (delta.size > 0) {
    // The mark's filter is for a job BullMQ ran twice at once (it stalled and
    // was taken again): on MongoDB only one of the two `$inc` lands.
    await resultsCollection().updateOne(
      { _id: campaign.objectId, [mark]: { $exists: false } },
      { $inc: incrementsOf(entriesOfCounters(delta)), $set: { [mark]: Date.now() } },
    );
  }
  await clearPendingChanges(pendingIds, batchId);
  await resultsCollection().updateOne({ _id: campaign.objectId }, { $unset: { [mark]: '' } });
}

/** The documents that hold the batch's pending change: written now, or by an earlier try of it. */
const pendingOfBatch = (
  stored: ReadonlyMap<string, CampaignActivity>,
  writes: readonly CampaignActivity[],
  batchId: string,
): string[] => {
  const latest = new Map(stored);
  for (const activity of writes) latest.set(activity._id, activity);
  return [...latest.values()].filter((doc) => doc.pending?.batch === batchId).map((doc) => doc._id);
};

/** Writes a campaign's share of a batch: one read of its recipients, their writes, one `$inc`. */
async function writeCampaign(
  campaign: TrackedCampaign,
  events: readonly TrackingEventRecord[],
  batchId: string,
): Promise<number> {
  const recipients = groupBy(events, (event) => event.recipientKey);
  const ids = [...recipients.keys()].map((key) => campaignActivityId(campaign.id, key));
  const stored = await readActivitiesById(ids);
  const total: Counters = new Map();
  let added = 0;
  const writes: CampaignActivity[] = [];
  for (const [recipientKey, incoming] of recipients) {
    const before = stored.get(campaignActivityId(campaign.id, recipientKey)) ?? null;
    const change = recipientChange(campaign, recipientKey, before, incoming, batchId);
    if (change.activity) writes.push(change.activity);
    added += change.added;
    sumInto(total, change.delta);
  }
  // One command after the other: see UPDATE_STATEMENTS_PER_COMMAND.
  for (const chunk of chunksOf(writes, UPDATE_STATEMENTS_PER_COMMAND)) {
    await activityCollection().bulkWrite(
      chunk.map((activity) => ({
        replaceOne: { filter: { _id: activity._id }, replacement: activity, upsert: true },
      })),
      { ordered: false },
    );
  }
  await applyBatch(campaign, batchId, total, pendingOfBatch(stored, writes, batchId));
  return added;
}

/** The results document, made when the campaign's first event comes. */
async function resultsOf(objectId: Types.ObjectId): Promise<CampaignResults> {
  const found = await resultsCollection().findOne({ _id: objectId });
  if (found) return found;
  const made: CampaignResults = { _id: objectId, counters: {}, marks: {}, mailsPerLanguage: null };
  await resultsCollection()
    .insertOne(made)
    .catch((error: unknown) => {
      if (!isDuplicateKeyError(error)) throw error;
    });
  return made;
}

/** The individual campaign's address book, with every recipient of this batch in it if the ledger has them. */
async function addressBookOf(
  campaignId: string,
  key: string,
  recipientKeys: readonly string[],
  books: Map<string, AddressBook>,
): Promise<Map<string, string>> {
  const cacheKey = `${campaignId}:${key}`;
  const book = books.get(cacheKey) ?? { emails: new Map(), batches: new Set() };
  books.delete(cacheKey);
  books.set(cacheKey, book);
  if (books.size > ADDRESS_BOOKS_KEPT) books.delete(books.keys().next().value ?? cacheKey);
  if (recipientKeys.some((recipientKey) => !book.emails.has(recipientKey))) {
    await readNewLedgerBatches(campaignId, key, book);
  }
  return book.emails;
}

/** The campaign as the writer needs it, or null when it is unknown or its key is destroyed. */
async function trackedCampaignOf(
  id: string,
  recipientKeys: readonly string[],
  books: Map<string, AddressBook>,
): Promise<TrackedCampaign | null> {
  if (!Types.ObjectId.isValid(id)) return null;
  const found = await CampaignModel.findById(id, {
    tracking: 1,
    startedAt: 1,
    dispatchedRound: 1,
  }).lean();
  const key = found?.tracking?.key;
  if (!found || !key) return null;
  const emails =
    found.tracking?.mode === 'individual'
      ? await addressBookOf(id, key, recipientKeys, books)
      : null;
  const objectId = new Types.ObjectId(id);
  const results = await resultsOf(objectId);
  if (results.mailsPerLanguage === null && found.dispatchedRound >= 1) {
    // The first round's roster is complete and never changes: counted once, for the report.
    await resultsCollection().updateOne(
      { _id: objectId },
      { $set: { mailsPerLanguage: await mailsPerLanguage(objectId) } },
    );
  }
  return { id, objectId, startedAt: found.startedAt ?? null, emails, marks: results.marks ?? {} };
}

/**
 * A writer with its address books of individual campaigns (each ledger
 * batch hashed once, not per event). Its batches must
 * be written one at a time (see above).
 */
export function createCampaignEventWriter(logger: Logger): CampaignEventWriter {
  const books = new Map<string, AddressBook>();
  return {
    async write(events, batchId) {
      const wellFormed = events.filter(isWellFormedEvent);
      const report: EventWriteReport = {
        counted: 0,
        repeated: 0,
        dropped: events.length - wellFormed.length,
      };
      for (const [campaignId, ofCampaign] of groupBy(wellFormed, (event) => event.campaignId)) {
        const recipientKeys = ofCampaign.map((event) => event.recipientKey);
        const campaign = await trackedCampaignOf(campaignId, recipientKeys, books);
        if (!campaign) {
          report.dropped += ofCampaign.length;
          continue;
        }
        const added = await writeCampaign(campaign, ofCampaign, batchId);
        report.counted += added;
        report.repeated += ofCampaign.length - added;
      }
      if (report.dropped > 0) {
        logger.info(
          { batchId, dropped: report.dropped },
          'tracking events malformed, of an unknown campaign or of a destroyed key were dropped',
        );
      }
      return report;
    },
  };
}
