import type { Redis } from '../redis-connection';

/**
 * Where a campaign's send keeps its work in progress in Redis: which mails
 * are in flight and which are answered, and the round's counters. Redis takes
 * a few writes per wave of mails; the ledger and the counters in the store
 * are written from here once per batch. The store stays the source of truth:
 * a round whose Redis state is lost is rebuilt from its ledger.
 */
export interface CampaignRoundKeys {
  /** key -> "s" or "f|<reason>": the outcome of each recipient, written once. */
  outcomes: string;
  /** key -> attempts started: more than one means retried or in flight at a crash. */
  attempts: string;
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
    counts: `${base}:counts`,
  };
}

/**
 * Recipients settled in one second (Unix time): the progress's rate sums the
 * last minute's keys. Each key lives two minutes.
 */
export function campaignRateKey(prefix: string, campaignId: string, second: number): string {
  return `${prefix}:campaign:${campaignId}:rate:${second}`;
}

/** How long a second's count of settled recipients is kept. */
export const CAMPAIGN_RATE_TTL_SECONDS = 120;

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

/**
 * One walk of a round's recipients (the dispatch's, or its count before the
 * first batch): whom it met, in a set of its own. `walk` names this walk
 * alone, so that two dispatches of one campaign (one taken over from a
 * worker thought dead) never skip each other's recipients. The walk drops
 * its set when it ends.
 */
export function campaignWalkKey(
  prefix: string,
  campaignId: string,
  round: number,
  walk: string,
): string {
  return `${prefix}:campaign:${campaignId}:r${round}:walk:${walk}`;
}

/**
 * A walk's set outlives its last page by this long, should its worker die
 * before dropping it: the addresses it holds leave Redis soon after.
 */
export const CAMPAIGN_WALK_TTL_SECONDS = 15 * 60;
