import type { Types, mongo } from 'mongoose';
import { insertUnlessPresent } from '../database-errors';
import type { Logger } from '../logger';
import { CampaignModel } from './campaign.model';
import { campaignBatchId } from './campaign-batch.model';
import { outcomeDocuments, rosters, type OutcomeLine } from './ledger-collections';

/**
 * Installations from before the ledger per batch kept one document per
 * recipient and fact in `campaignrecipients`: a `pending` fact written by the
 * dispatch (`<campaign>:<round>:pending:<key>`, with what the mail was
 * personalised with) and a `sent` or `failed` fact written by the send
 * (`<campaign>:<round>:<key>`). Nothing reads that collection any more: its
 * campaigns' recipients dialog and resend to the failed read the rosters and
 * outcomes. This copies each ended campaign's facts into them, then deletes
 * the facts.
 */
export const LEGACY_LEDGER_COLLECTION = 'campaignrecipients';

interface LegacyFact {
  _id: string;
  campaign: Types.ObjectId;
  round: number;
  state: 'pending' | 'sent' | 'failed';
  email: string;
  firstName?: string;
  locale?: string;
  reason?: string;
  attempts?: number;
  at: Date;
}

/**
 * Only campaigns no send can touch any more are copied. One queued, sending
 * or paused would be resumed by the engine from a ledger it did not write,
 * whose batches need not match the ones it queues.
 */
const ENDED = ['sent', 'failed', 'cancelled'];

export interface LegacyLedgerReport {
  /** Campaigns whose facts were copied, then deleted. */
  migrated: number;
  /** Facts of campaigns that no longer exist, deleted. */
  orphaned: number;
  /** Campaigns left as they are: still queued, sending or paused. */
  leftActive: number;
}

const legacyFacts = () =>
  CampaignModel.db.collection(LEGACY_LEDGER_COLLECTION) as unknown as mongo.Collection<LegacyFact>;

/** The recipient key a fact's `_id` ends with, after `<campaign>:<round>:` and `pending:` for a pending fact. */
function keyOf(fact: LegacyFact): string {
  const rest = fact._id.slice(`${String(fact.campaign)}:${fact.round}:`.length);
  return fact.state === 'pending' ? rest.slice('pending:'.length) : rest;
}

type OutcomeFact = LegacyFact & { state: 'sent' | 'failed' };

const pendingIdOf = (fact: LegacyFact) =>
  `${String(fact.campaign)}:${fact.round}:pending:${keyOf(fact)}`;
const outcomeIdOf = (fact: LegacyFact) => `${String(fact.campaign)}:${fact.round}:${keyOf(fact)}`;

/** Groups what a cursor yields into arrays of `size`, the last one shorter. */
async function* chunked<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let chunk: T[] = [];
  for await (const item of items) {
    chunk.push(item);
    if (chunk.length === size) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/**
 * One round's recipients in the order the copy gives them batches: the
 * pending facts by `_id`, then anyone with an outcome but no pending fact.
 * The order is the store's, so a copy run again cuts the same batches; the
 * facts are read a chunk at a time, however large the round.
 */
async function* rosterOrder(
  campaign: Types.ObjectId,
  round: number,
  chunkSize: number,
): AsyncGenerator<LegacyFact> {
  const byId = { _id: 1 } as const;
  yield* legacyFacts().find({ campaign, round, state: 'pending' }).sort(byId).batchSize(chunkSize);
  // Stryker disable next-line StringLiteral: a pending fact read here has itself for pending fact, and is dropped
  const outcomeFacts: mongo.Filter<LegacyFact> = { campaign, round, state: { $ne: 'pending' } };
  const outcomes = legacyFacts().find(outcomeFacts).sort(byId).batchSize(chunkSize);
  for await (const chunk of chunked(outcomes, chunkSize)) {
    // Stryker disable next-line ObjectLiteral: a wider read finds the same pending facts, only slower
    const theirPending = { _id: { $in: chunk.map(pendingIdOf) } };
    // Stryker disable next-line ObjectLiteral: the whole facts answer the same, only slower
    const idsOnly = { projection: { _id: 1 } } as const;
    const withPending = await legacyFacts().find(theirPending, idsOnly).toArray();
    const known = new Set(withPending.map(({ _id }) => _id));
    for (const fact of chunk) if (!known.has(pendingIdOf(fact))) yield fact;
  }
}

/** One batch of the new ledger: its roster, and its outcomes when anyone in it was answered. */
async function copyBatch(
  campaign: Types.ObjectId,
  round: number,
  seq: number,
  batch: LegacyFact[],
): Promise<void> {
  // A pending fact's outcome is under its own `_id`; a stray is its own outcome.
  const answered = await legacyFacts()
    .find<OutcomeFact>({ _id: { $in: batch.map(outcomeIdOf) } })
    .toArray();
  const outcomes = new Map(answered.map((fact) => [keyOf(fact), fact]));
  const _id = campaignBatchId(String(campaign), round, seq);
  await insertUnlessPresent(rosters(), [
    {
      _id,
      campaign,
      round,
      seq,
      recipients: batch.map((fact) => ({
        key: keyOf(fact),
        email: fact.email,
        firstName: fact.firstName ?? '',
        lastName: '',
        locale: fact.locale ?? 'en',
      })),
      // Stryker disable next-line OptionalChaining: a batch holds one fact at least
      createdAt: batch[0]?.at ?? new Date(),
    },
  ]);
  const lines: OutcomeLine[] = batch.flatMap((fact, position) => {
    const outcome = outcomes.get(keyOf(fact));
    if (!outcome) return [];
    return [
      {
        position,
        email: outcome.email,
        state: outcome.state,
        ...(outcome.reason ? { reason: outcome.reason } : {}),
        attempts: outcome.attempts ?? 1,
        at: outcome.at,
      },
    ];
  });
  if (lines.length > 0) {
    await insertUnlessPresent(outcomeDocuments(), [{ _id, campaign, round, seq, outcomes: lines }]);
  }
}

/**
 * Copies one campaign's facts, round by round and a batch at a time, then
 * deletes them: a crash, or a stop, before the delete copies them again,
 * unchanged. Returns false when stopped before the end.
 */
async function migrateCampaign(
  campaign: Types.ObjectId,
  batchSize: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const rounds = (await legacyFacts().distinct('round', { campaign })) as number[];
  for (const round of rounds) {
    let seq = 0;
    for await (const batch of chunked(rosterOrder(campaign, round, batchSize), batchSize)) {
      if (signal?.aborted) return false;
      await copyBatch(campaign, round, seq, batch);
      seq += 1;
    }
  }
  await legacyFacts().deleteMany({ campaign });
  return true;
}

/**
 * Moves the facts of the old per-recipient ledger into the ledger per
 * batch. Run by every worker at start-up: a collection that is not there
 * costs one command, and two workers migrating at once write the same
 * documents.
 */
export async function migrateLegacyLedger({
  batchSize,
  logger,
  signal,
}: {
  batchSize: number;
  logger: Logger;
  /** Aborted when the worker stops: the copy ends after the batch it is writing. */
  signal?: AbortSignal;
}): Promise<LegacyLedgerReport> {
  const report: LegacyLedgerReport = { migrated: 0, orphaned: 0, leftActive: 0 };
  const campaigns = (await legacyFacts().distinct('campaign')) as Types.ObjectId[];
  for (const id of campaigns) {
    if (signal?.aborted) break;
    // Stryker disable next-line ObjectLiteral: only the status is read; the whole campaign answers the same
    const campaign = await CampaignModel.findById(id, { status: 1 }).lean();
    if (!campaign) {
      // Deleted with its rosters and outcomes: its facts are all that is left of it.
      const { deletedCount } = await legacyFacts().deleteMany({ campaign: id });
      report.orphaned += deletedCount;
    } else if (ENDED.includes(campaign.status)) {
      if (!(await migrateCampaign(id, batchSize, signal))) break;
      report.migrated += 1;
    } else {
      report.leftActive += 1;
    }
  }
  if (signal?.aborted) {
    logger.info(
      report,
      'old campaign ledger partly moved when the worker stopped; the next start goes on',
    );
  } else if (campaigns.length > 0) {
    logger.info(report, 'old campaign ledger moved to the batch ledger');
  }
  if (report.leftActive > 0) {
    logger.warn(
      { campaigns: report.leftActive },
      'campaigns queued, sending or paused since before the batch ledger keep their old ledger until they end; a worker started after that moves it',
    );
  }
  return report;
}
