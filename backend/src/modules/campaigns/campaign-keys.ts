import type { Redis } from '../../queues/redis-connection';

/**
 * Where a campaign's send keeps its per-message state in Redis. Redis takes
 * one small write per message at SMTP speed, which the embedded store cannot
 * (an update there scans its collection); the ledger and the counters in
 * MongoDB are written from here in batches.
 */
export interface CampaignRoundKeys {
  /** key -> "s" or "f|<reason>": the outcome of each recipient, written once. */
  outcomes: string;
  /** key -> attempts started: more than one means retried or in flight at a crash. */
  attempts: string;
  /** key -> 1 once its outcome is in the MongoDB ledger and counted. */
  recorded: string;
  /** sent, failed, version (v), total, dispatched (1 once every batch is queued). */
  counts: string;
}

export function campaignRoundKeys(
  prefix: string,
  campaignId: string,
  round: number,
): CampaignRoundKeys {
  const base = `${prefix}:campaign:${campaignId}:r${round}`;
  return {
    outcomes: `${base}:outcomes`,
    attempts: `${base}:attempts`,
    recorded: `${base}:recorded`,
    counts: `${base}:counts`,
  };
}

/** A sorted set of (time, recipients settled so far) samples: the rate over the last minute. */
export function campaignRateKey(prefix: string, campaignId: string): string {
  return `${prefix}:campaign:${campaignId}:rate`;
}

/** How long a finished round's Redis state is kept (a resend needs none of it). */
export const CAMPAIGN_STATE_TTL_SECONDS = 7 * 24 * 3600;

/**
 * A round that ended (finished or cancelled): its state stays a while, for a
 * batch still finishing or replayed late, then Redis drops it.
 */
export async function expireRoundState(redis: Redis, keys: CampaignRoundKeys): Promise<void> {
  await Promise.all(
    Object.values(keys).map((key) => redis.expire(key, CAMPAIGN_STATE_TTL_SECONDS)),
  );
}
