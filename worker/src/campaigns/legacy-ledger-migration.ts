import type { Types, mongo } from 'mongoose';
import {
  CampaignBatchModel,
  CampaignModel,
  CampaignOutcomeModel,
  campaignBatchId,
  isDuplicateKeyError,
  type Logger,
} from '@agency/platform';

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

/** Writes documents, those already there (a migration run again after a crash) left as they are. */
async function insertMissing<T extends mongo.Document>(
  collection: mongo.Collection<T>,
  documents: mongo.OptionalUnlessRequiredId<T>[],
): Promise<void> {
  if (documents.length === 0) return;
  try {
    await collection.insertMany(documents, { ordered: false });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
}

/** The recipient key a fact's `_id` ends with, after `<campaign>:<round>:` and `pending:` for a pending fact. */
function keyOf(fact: LegacyFact): string {
  const rest = fact._id.slice(`${String(fact.campaign)}:${fact.round}:`.length);
  return fact.state === 'pending' ? rest.slice('pending:'.length) : rest;
}

// Stryker disable next-line EqualityOperator: two facts never share an \`_id\`, so \`<\` and \`<=\` agree
const byId = (a: LegacyFact, b: LegacyFact) => (a._id < b._id ? -1 : 1);

/**
 * One round's facts as batches of the new ledger: the pending facts in the
 * order of their `_id`s (the same batches however often it runs), then anyone
 * with an outcome but no pending fact.
 */
async function copyRound(
  campaign: Types.ObjectId,
  round: number,
  facts: LegacyFact[],
  batchSize: number,
): Promise<void> {
  const pending = facts.filter(({ state }) => state === 'pending').sort(byId);
  const outcomes = new Map(
    facts.filter(({ state }) => state !== 'pending').map((fact) => [keyOf(fact), fact]),
  );
  const known = new Set(pending.map(keyOf));
  const strays = [...outcomes.values()].filter((fact) => !known.has(keyOf(fact))).sort(byId);
  const roster = [...pending, ...strays];
  const campaignId = String(campaign);
  const rosters = [];
  const answered = [];
  for (let seq = 0; seq * batchSize < roster.length; seq += 1) {
    const _id = campaignBatchId(campaignId, round, seq);
    const batch = roster.slice(seq * batchSize, (seq + 1) * batchSize);
    rosters.push({
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
    });
    const lines = batch.flatMap((fact, position) => {
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
    if (lines.length > 0) answered.push({ _id, campaign, round, seq, outcomes: lines });
  }
  await insertMissing(
    CampaignBatchModel.collection as unknown as mongo.Collection<{ _id: string }>,
    rosters,
  );
  await insertMissing(
    CampaignOutcomeModel.collection as unknown as mongo.Collection<{ _id: string }>,
    answered,
  );
}

/** Copies one campaign's facts, round by round, then deletes them: a crash between the two copies them again, unchanged. */
async function migrateCampaign(campaign: Types.ObjectId, batchSize: number): Promise<void> {
  const facts = await legacyFacts().find({ campaign }).toArray();
  const rounds = new Map<number, LegacyFact[]>();
  for (const fact of facts) rounds.set(fact.round, [...(rounds.get(fact.round) ?? []), fact]);
  for (const [round, ofRound] of rounds) await copyRound(campaign, round, ofRound, batchSize);
  await legacyFacts().deleteMany({ campaign });
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
}: {
  batchSize: number;
  logger: Logger;
}): Promise<LegacyLedgerReport> {
  const report: LegacyLedgerReport = { migrated: 0, orphaned: 0, leftActive: 0 };
  const campaigns = (await legacyFacts().distinct('campaign')) as Types.ObjectId[];
  for (const id of campaigns) {
    // Stryker disable next-line ObjectLiteral: only the status is read; the whole campaign answers the same
    const campaign = await CampaignModel.findById(id, { status: 1 }).lean();
    if (!campaign) {
      // Deleted with its rosters and outcomes: its facts are all that is left of it.
      const { deletedCount } = await legacyFacts().deleteMany({ campaign: id });
      report.orphaned += deletedCount;
    } else if (ENDED.includes(campaign.status)) {
      await migrateCampaign(id, batchSize);
      report.migrated += 1;
    } else {
      report.leftActive += 1;
    }
  }
  if (campaigns.length > 0) logger.info(report, 'old campaign ledger moved to the batch ledger');
  if (report.leftActive > 0) {
    logger.warn(
      { campaigns: report.leftActive },
      'campaigns queued, sending or paused since before the batch ledger keep their old ledger until they end; a worker started after that moves it',
    );
  }
  return report;
}
