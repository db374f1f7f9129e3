import { randomUUID } from 'node:crypto';
import {
  CAMPAIGN_RATE_TTL_SECONDS,
  CAMPAIGN_WALK_TTL_SECONDS,
  campaignRateKey,
  campaignRoundKeys,
  campaignWalkKey,
  walkKeysInRedis,
  expireRoundState,
  withCampaignLock,
  withCampaignLockOrThrow,
  type CampaignRoundKeys,
  type Redis,
  type LedgerOutcome,
  type RoundCounts,
  type RedisWalkKeys,
} from '@agency/platform';

/**
 * One exchange per wave of mails: the last wave's outcomes are written (the
 * first outcome of a recipient wins) and each counted once, then the next
 * wave is picked among the candidates: a recipient already answered is
 * reported with its outcome, any other gets its attempt noted before its
 * mail goes out. So a crash leaves attempts without outcomes for exactly the
 * mails in flight.
 *
 * KEYS: outcomes, attempts, counts, this second's rate.
 * ARGV: n, then n × (key, encoded outcome, "sent"|"failed"), the rate's TTL,
 *       the wave's size, then the candidates' keys.
 */
const WAVE_SCRIPT = `
local n = tonumber(ARGV[1])
local changed = 0
for i = 0, n - 1 do
  local key = ARGV[2 + i * 3]
  if redis.call('HSETNX', KEYS[1], key, ARGV[3 + i * 3]) == 1 then
    redis.call('HINCRBY', KEYS[3], ARGV[4 + i * 3], 1)
    changed = changed + 1
  end
end
if changed > 0 then
  redis.call('HINCRBY', KEYS[3], 'v', 1)
  redis.call('INCRBY', KEYS[4], changed)
  redis.call('EXPIRE', KEYS[4], ARGV[2 + n * 3])
end
local size = tonumber(ARGV[3 + n * 3])
local first = 4 + n * 3
local found, picked = {}, {}
local count = 0
local i = first
while count < size and i <= #ARGV do
  local key = ARGV[i]
  local outcome = redis.call('HGET', KEYS[1], key)
  if outcome then
    found[#found + 1] = key
    found[#found + 1] = outcome
    found[#found + 1] = redis.call('HGET', KEYS[2], key) or '1'
  else
    picked[#picked + 1] = key
    picked[#picked + 1] = redis.call('HINCRBY', KEYS[2], key, 1)
    count = count + 1
  end
  i = i + 1
end
return { redis.call('HMGET', KEYS[3], 'sent', 'failed', 'v', 'total', 'dispatched'), found, picked, i - first }
`;

/**
 * Recounts a round's counters from the outcomes Redis holds (the ledger's
 * were written back first), as a round whose whole audience is queued. Only
 * while the counters lack `dispatched`, the mark of a round Redis lost.
 * KEYS: outcomes, counts. ARGV: total, the lowest version to count from.
 */
const RECOUNT_SCRIPT = `
if redis.call('HEXISTS', KEYS[2], 'dispatched') == 1 then return 0 end
local sent, failed = 0, 0
for _, value in ipairs(redis.call('HVALS', KEYS[1])) do
  if value == 's' then sent = sent + 1 else failed = failed + 1 end
end
local version = math.max(tonumber(redis.call('HGET', KEYS[2], 'v') or '0'), tonumber(ARGV[2]))
redis.call('HSET', KEYS[2], 'sent', sent, 'failed', failed, 'v', version, 'total', ARGV[1], 'dispatched', 1)
return 1
`;

/** Outcomes written back per round trip when a round is rebuilt. */
const REBUILD_CHUNK = 1000;

/** The round's counters as Redis keeps them while it is sent. */
export interface RoundProgress extends RoundCounts {
  total: number;
  /** Every batch of the round is queued, so `total` is final. */
  dispatched: boolean;
}

export function isRoundSettled(progress: RoundProgress): boolean {
  return progress.dispatched && progress.sent + progress.failed >= progress.total;
}

type CountFields = (string | null)[];

function progressOf([sent, failed, version, total, dispatched]: CountFields): RoundProgress {
  return {
    sent: Number(sent ?? 0),
    failed: Number(failed ?? 0),
    version: Number(version ?? 0),
    total: Number(total ?? 0),
    dispatched: dispatched === '1',
  };
}

const SENT = 's';
const FAILED = 'f|';

function encodeOutcome(outcome: LedgerOutcome): string {
  return outcome.state === 'sent' ? SENT : `${FAILED}${outcome.reason}`;
}

function decodeOutcome(value: string, attempts: number): LedgerOutcome {
  return value === SENT
    ? { state: 'sent', attempts }
    : { state: 'failed', reason: value.slice(FAILED.length), attempts };
}

export interface Answered {
  key: string;
  outcome: LedgerOutcome;
}

export interface Wave {
  progress: RoundProgress;
  /** Candidates that already had an outcome (a batch run again): not mailed again. */
  answered: Answered[];
  /** The wave to mail now, each with its attempt in this round. */
  picked: { key: string; attempts: number }[];
  /** How many of the candidates were looked at: the rest wait for the next wave. */
  examined: number;
}

/**
 * A campaign round's work in progress, in Redis: each recipient's attempts
 * and outcome, the round's counters and the rate. A batch talks to it once
 * per wave of mails, not once per mail. The ledger in the store is written
 * from it once per batch run, and rebuilds it when Redis lost it.
 */
export class RoundTracker {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  keys(campaignId: string, round: number): CampaignRoundKeys {
    return campaignRoundKeys(this.prefix, campaignId, round);
  }

  /** Writes the last wave's outcomes and picks the next wave among `candidates`. */
  async wave(
    campaignId: string,
    keys: CampaignRoundKeys,
    answered: readonly Answered[],
    size: number,
    candidates: readonly string[],
  ): Promise<Wave> {
    const second = Math.floor(Date.now() / 1000);
    const [counts, found, picked, examined] = (await this.redis.eval(
      WAVE_SCRIPT,
      4,
      keys.outcomes,
      keys.attempts,
      keys.counts,
      campaignRateKey(this.prefix, campaignId, second),
      answered.length,
      ...answered.flatMap(({ key, outcome }) => [key, encodeOutcome(outcome), outcome.state]),
      CAMPAIGN_RATE_TTL_SECONDS,
      size,
      ...candidates,
    )) as [CountFields, string[], (string | number)[], number];
    const already: Answered[] = [];
    for (let index = 0; index < found.length; index += 3) {
      already.push({
        key: found[index] as string,
        outcome: decodeOutcome(found[index + 1] as string, Number(found[index + 2])),
      });
    }
    const next: Wave['picked'] = [];
    for (let index = 0; index < picked.length; index += 2) {
      next.push({ key: String(picked[index]), attempts: Number(picked[index + 1]) });
    }
    return { progress: progressOf(counts), answered: already, picked: next, examined };
  }

  /**
   * A new walk of the round's recipients: whom it met is kept in Redis, so
   * that the worker holds one page of the audience, whatever its size.
   * Release it when the walk ends.
   */
  walkKeys(campaignId: string, round: number): RedisWalkKeys {
    const key = campaignWalkKey(this.prefix, campaignId, round, randomUUID());
    return walkKeysInRedis(this.redis, key, CAMPAIGN_WALK_TTL_SECONDS);
  }

  /** Every batch is queued: the round's total is final. */
  async markDispatched(keys: CampaignRoundKeys, total: number): Promise<RoundProgress> {
    await this.redis.hset(keys.counts, 'total', total, 'dispatched', 1);
    return this.progress(keys);
  }

  async progress(keys: CampaignRoundKeys): Promise<RoundProgress> {
    return progressOf(
      await this.redis.hmget(keys.counts, 'sent', 'failed', 'v', 'total', 'dispatched'),
    );
  }

  /**
   * Redis lost the round (a failover, a restart without persistence,
   * FLUSHALL): it is rebuilt from the ledger. The ledger's outcomes are
   * written back (the first outcome of a recipient still wins, so a batch
   * still finishing after the loss counts nobody twice), then the counters
   * are recounted from every outcome Redis holds, past the version last
   * folded into the campaign. Answers false when Redis still had the round.
   */
  async rebuild(
    keys: CampaignRoundKeys,
    outcomes: readonly Answered[],
    total: number,
    version: number,
  ): Promise<boolean> {
    if ((await this.redis.hexists(keys.counts, 'dispatched')) === 1) return false;
    for (let start = 0; start < outcomes.length; start += REBUILD_CHUNK) {
      const pipeline = this.redis.pipeline();
      for (const { key, outcome } of outcomes.slice(start, start + REBUILD_CHUNK)) {
        pipeline.hsetnx(keys.outcomes, key, encodeOutcome(outcome));
      }
      await pipeline.exec();
    }
    const recounted = await this.redis.eval(
      RECOUNT_SCRIPT,
      2,
      keys.outcomes,
      keys.counts,
      total,
      version,
    );
    return recounted === 1;
  }

  /** A write of the campaign document that a later batch would make anyway: skipped when another writer is at it. */
  writeIfFree<T>(campaignId: string, write: () => Promise<T>): Promise<T | undefined> {
    return withCampaignLock(this.redis, this.prefix, campaignId, 0, write);
  }

  /** A write of the campaign document that must happen (start, end): waits for its turn. */
  writeInTurn<T>(campaignId: string, write: () => Promise<T>): Promise<T> {
    return withCampaignLockOrThrow(this.redis, this.prefix, campaignId, 10_000, write);
  }

  /** A finished round's state is kept a while (for a late replay), then dropped. */
  expire(keys: CampaignRoundKeys): Promise<void> {
    return expireRoundState(this.redis, keys);
  }
}
