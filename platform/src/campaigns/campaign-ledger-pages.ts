import { Types, trusted } from 'mongoose';
import type { LedgerState } from '@agency/contracts';
import {
  CampaignBatchModel,
  CampaignOutcomeModel,
  type OutcomeEntry,
  type RosterEntry,
} from './campaign-batch.model';

/**
 * Reading the ledger a page at a time, for the campaign's recipients dialog.
 * The worker writes the ledger (one roster and one outcome document per
 * batch); the reads live here, beside its models, so its layout has one
 * owner rather than a copy of it in the API.
 */
export interface LedgerPageQuery {
  /** `failed`: the current round's failures; `sent`: every round's deliveries; `pending`: the current round's recipients still owed. */
  state: LedgerState;
  /** The campaign's current round. */
  round: number;
  /** By address, Z to A rather than A to Z. */
  descending: boolean;
  skip: number;
  limit: number;
}

export interface LedgerPageLine {
  email: string;
  /** Absent while the recipient is still owed. */
  state?: string;
  reason?: string | null;
  attempts?: number;
  /** When the outcome was written. */
  at?: Date;
  /** The round of the line's batch, and when that batch was queued. */
  round?: number;
  queuedAt?: Date;
}

interface BatchLine {
  batchId: string;
  entry: LedgerPageLine;
}

type BatchLines = { lines: BatchLine[]; total: number };

/**
 * Outcomes, sent or failed: the store unwinds the batches' outcome documents
 * for the page and for its count.
 */
async function outcomeLines(
  batches: Record<string, unknown>,
  { state, descending, skip, limit }: LedgerPageQuery,
): Promise<BatchLines> {
  const linesIn = [
    { $match: batches },
    { $unwind: '$outcomes' },
    { $match: { 'outcomes.state': state } },
  ];
  const [lines, counted] = await Promise.all([
    CampaignOutcomeModel.aggregate<{ _id: string; outcomes: OutcomeEntry }>([
      ...linesIn,
      { $sort: { 'outcomes.email': descending ? -1 : 1, _id: 1 } },
      { $skip: skip },
      { $limit: limit },
    ]),
    CampaignOutcomeModel.aggregate<{ total: number }>([...linesIn, { $count: 'total' }]),
  ]);
  return {
    lines: lines.map(({ _id, outcomes }) => ({ batchId: _id, entry: outcomes })),
    total: counted[0]?.total ?? 0,
  };
}

/**
 * The round's recipients still owed: in a batch's roster, without an outcome.
 * Outcomes and rosters are apart, so the roster is read in order and the page
 * cut here; a tab seldom opened, read in one pass over the round.
 */
async function pendingLines(
  batches: Record<string, unknown>,
  { descending, skip, limit }: LedgerPageQuery,
): Promise<BatchLines> {
  const answered = new Set<string>();
  const outcomes = CampaignOutcomeModel.find(batches, { 'outcomes.email': 1 })
    .lean<{ outcomes: { email: string }[] }[]>()
    .cursor();
  for await (const batch of outcomes) for (const { email } of batch.outcomes) answered.add(email);
  const roster = CampaignBatchModel.aggregate<{ _id: string; recipients: RosterEntry }>([
    { $match: batches },
    { $unwind: '$recipients' },
    { $sort: { 'recipients.email': descending ? -1 : 1, _id: 1 } },
  ]).cursor();
  const lines: BatchLine[] = [];
  let total = 0;
  for await (const { _id, recipients: entry } of roster) {
    if (answered.has(entry.email)) continue;
    if (total >= skip && lines.length < limit) lines.push({ batchId: _id, entry });
    total += 1;
  }
  return { lines, total };
}

/** One page of a campaign's ledger, each line with its batch's round and queue time, and the count of all. */
export async function readLedgerPage(
  campaignId: string,
  query: LedgerPageQuery,
): Promise<{ lines: LedgerPageLine[]; total: number }> {
  const batches: Record<string, unknown> = { campaign: new Types.ObjectId(campaignId) };
  if (query.state !== 'sent') batches.round = query.round;
  const { lines, total } =
    query.state === 'pending'
      ? await pendingLines(batches, query)
      : await outcomeLines(batches, query);
  // The embedded store's $unwind keeps only `_id` and the unwound field: the
  // page's batches are read again by `_id` for their round and time.
  const batchesOnPage = await CampaignBatchModel.find(
    { _id: trusted({ $in: [...new Set(lines.map((line) => line.batchId))] }) },
    { round: 1, createdAt: 1 },
  ).lean();
  const batchOf = new Map(batchesOnPage.map((batch) => [batch._id, batch]));
  return {
    lines: lines.map(({ batchId, entry }) => ({
      ...entry,
      round: batchOf.get(batchId)?.round,
      queuedAt: batchOf.get(batchId)?.createdAt,
    })),
    total,
  };
}

/** Deletes a campaign's whole ledger: every recipient's address and outcome. */
export async function deleteLedger(campaignId: string | Types.ObjectId): Promise<void> {
  await CampaignBatchModel.deleteMany({ campaign: campaignId });
  await CampaignOutcomeModel.deleteMany({ campaign: campaignId });
}
