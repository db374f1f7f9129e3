import type { PersonDataExportDto } from '@agency/contracts';
import { trusted } from 'mongoose';
import type { Redis } from '../redis-connection';
import { CampaignBatchModel, CampaignOutcomeModel } from './campaign-batch.model';
import { campaignRoundKeys } from './campaign-keys';
import { CampaignModel } from './campaign.model';
import { CampaignActivityModel } from './results/campaign-results.model';

/*
 * What the campaigns module holds of one address (its normalised `key`): the
 * ledger's rosters and outcomes, the round state in Redis, and the opens and
 * clicks of campaigns tracked by address. The rosters are found by the
 * multikey index on `recipients.key` on MongoDB (it serves the person page
 * and the bounce checks too); the embedded store cannot use it on an array
 * and walks them, which an erasure or a download, being rare, can afford.
 */

type BatchRef = {
  _id: string;
  campaign: unknown;
  round: number;
  createdAt: Date;
  position: number;
};

async function batchesHolding(key: string): Promise<BatchRef[]> {
  const batches = await CampaignBatchModel.find(
    { 'recipients.key': key },
    { campaign: 1, round: 1, createdAt: 1, recipients: 1 },
  ).lean();
  return batches.map((batch) => ({
    _id: batch._id,
    campaign: batch.campaign,
    round: batch.round,
    createdAt: batch.createdAt,
    position: batch.recipients.findIndex((entry) => entry.key === key),
  }));
}

/** Every campaign mail the ledger addressed to `key`, newest first, with how it ended. */
export async function findMailsSentTo(key: string): Promise<PersonDataExportDto['mailsSent']> {
  const batches = await batchesHolding(key);
  const outcomes = await CampaignOutcomeModel.find({
    _id: trusted({ $in: batches.map(({ _id }) => _id) }),
  }).lean();
  const outcomeOf = new Map(outcomes.map((doc) => [doc._id, doc.outcomes]));
  const campaigns = await CampaignModel.find(
    { _id: trusted({ $in: batches.map(({ campaign }) => campaign) }) },
    { name: 1 },
  ).lean();
  const names = new Map(campaigns.map(({ _id, name }) => [String(_id), name]));
  return batches
    .map((batch) => {
      const outcome = outcomeOf.get(batch._id)?.find(({ position }) => position === batch.position);
      return {
        campaign: { id: String(batch.campaign), name: names.get(String(batch.campaign)) ?? null },
        round: batch.round,
        queuedAt: batch.createdAt.toISOString(),
        state: outcome?.state ?? ('queued' as const),
        reason: outcome?.reason ?? null,
        at: outcome?.at.toISOString() ?? null,
      };
    })
    .sort((a, b) => b.queuedAt.localeCompare(a.queuedAt));
}

/** Opens and clicks a campaign in individual mode recorded under the address. */
export async function findTrackingEventsOf(
  key: string,
): Promise<PersonDataExportDto['trackingEvents']> {
  const activities = await CampaignActivityModel.find({ email: key }).lean();
  return activities.map((activity) => ({
    campaign: String(activity.campaign),
    opened: activity.opened,
    clicked: activity.clicked,
    events: activity.events.length,
  }));
}

/**
 * Replaces the address by `token` (its keyed digest) in every roster and
 * outcome that names it, and in the rounds' state in Redis: each mail stays
 * counted once, under a name nobody can read back. Rewriting a batch already
 * rewritten changes nothing, so a step run again after a crash finishes the rest.
 */
export async function pseudonymiseLedgerOf(
  key: string,
  token: string,
  redis: { connection: Redis; prefix: string },
): Promise<number> {
  const batches = await batchesHolding(key);
  for (const batch of batches) {
    await CampaignBatchModel.updateOne(
      { _id: batch._id },
      {
        $set: {
          [`recipients.${batch.position}.key`]: token,
          [`recipients.${batch.position}.email`]: token,
        },
      },
    );
    const outcomes = await CampaignOutcomeModel.findById(batch._id, { outcomes: 1 }).lean();
    const index = outcomes?.outcomes.findIndex(({ position }) => position === batch.position) ?? -1;
    if (index >= 0) {
      await CampaignOutcomeModel.updateOne(
        { _id: batch._id },
        { $set: { [`outcomes.${index}.email`]: token } },
      );
    }
    await renameRoundFields(redis, String(batch.campaign), batch.round, key, token);
  }
  return batches.length;
}

/** The round's outcome and attempt hashes are keyed by address while the round's state lives. */
async function renameRoundFields(
  { connection, prefix }: { connection: Redis; prefix: string },
  campaignId: string,
  round: number,
  key: string,
  token: string,
): Promise<void> {
  const keys = campaignRoundKeys(prefix, campaignId, round);
  for (const hash of [keys.outcomes, keys.attempts]) {
    const value = await connection.hget(hash, key);
    if (value === null) continue;
    await connection.hset(hash, token, value);
    await connection.hdel(hash, key);
  }
}
