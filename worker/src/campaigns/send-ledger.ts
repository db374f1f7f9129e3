import {
  campaignRateKey,
  campaignRoundKeys,
  expireRoundState,
  type CampaignRoundKeys,
  type LedgerOutcome,
  type Redis,
  type RoundCounts,
  withCampaignLock,
  withCampaignLockOrThrow,
} from '@agency/backend/store';

/**
 * Marks outcomes as recorded and counts each once, atomically: a batch
 * replayed after a crash records again and counts nothing twice. Also
 * samples (time, how many settled) for the rate over the last minute.
 */
const RECORD_SCRIPT = `
local changed = 0
for i = 1, #ARGV, 2 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], 1) == 1 then
    redis.call('HINCRBY', KEYS[2], ARGV[i + 1], 1)
    changed = changed + 1
  end
end
if changed > 0 then
  local version = redis.call('HINCRBY', KEYS[2], 'v', 1)
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  redis.call('ZADD', KEYS[3], now, now .. ':' .. changed .. ':' .. version .. ':' .. KEYS[2])
  redis.call('ZREMRANGEBYSCORE', KEYS[3], 0, now - 120000)
  redis.call('PEXPIRE', KEYS[3], 120000)
end
return redis.call('HMGET', KEYS[2], 'sent', 'failed', 'v', 'total', 'dispatched')
`;

/** A mail's outcome (the first one written wins), then the next mail's attempt. */
const SETTLE_AND_START_SCRIPT = `
redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])
return redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
`;

export interface RoundState extends RoundCounts {
  total: number;
  /** Every batch of the round is queued, so `total` is final. */
  dispatched: boolean;
}

type CountFields = (string | null)[];

function roundStateOf([sent, failed, version, total, dispatched]: CountFields): RoundState {
  return {
    sent: Number(sent ?? 0),
    failed: Number(failed ?? 0),
    version: Number(version ?? 0),
    total: Number(total ?? 0),
    dispatched: dispatched === '1',
  };
}

export function isRoundSettled(state: RoundState): boolean {
  return state.dispatched && state.sent + state.failed >= state.total;
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

/**
 * The per-message state of a campaign send, in Redis: written once per
 * message at SMTP speed, read back by a batch that runs again after a crash
 * so that nobody already mailed is mailed again.
 */
export class SendLedger {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  keys(campaignId: string, round: number): CampaignRoundKeys {
    return campaignRoundKeys(this.prefix, campaignId, round);
  }

  /** What is already settled of these recipients (undefined: still owed), with their attempts. */
  async settledOf(
    keys: CampaignRoundKeys,
    recipientKeys: readonly string[],
  ): Promise<(LedgerOutcome | undefined)[]> {
    if (recipientKeys.length === 0) return [];
    const [outcomes, attempts] = await Promise.all([
      this.redis.hmget(keys.outcomes, ...recipientKeys),
      this.redis.hmget(keys.attempts, ...recipientKeys),
    ]);
    return outcomes.map((value, index) =>
      value === null ? undefined : decodeOutcome(value, Number(attempts[index] ?? 1)),
    );
  }

  /** Written before the mail goes to SMTP: a crash leaves it, showing the mail was in flight. */
  startAttempt(keys: CampaignRoundKeys, recipientKey: string): Promise<number> {
    return this.redis.hincrby(keys.attempts, recipientKey, 1);
  }

  /**
   * The previous mail's outcome and the next mail's attempt in one round
   * trip: a batch pays one Redis exchange per mail rather than two, and the
   * order (outcome, then attempt) keeps the in-flight window one mail wide.
   * One script rather than MULTI: ioredis builds a whole pipeline object
   * per MULTI, which cost the workers about a twentieth of their CPU.
   */
  async settleAndStart(
    keys: CampaignRoundKeys,
    previous: { key: string; outcome: LedgerOutcome } | undefined,
    nextKey: string,
  ): Promise<number> {
    if (!previous) return this.startAttempt(keys, nextKey);
    const attempts = await this.redis.eval(
      SETTLE_AND_START_SCRIPT,
      2,
      keys.outcomes,
      keys.attempts,
      previous.key,
      encodeOutcome(previous.outcome),
      nextKey,
    );
    return Number(attempts);
  }

  /** Written as soon as SMTP answers; the first outcome of a recipient wins. */
  async settle(
    keys: CampaignRoundKeys,
    recipientKey: string,
    outcome: LedgerOutcome,
  ): Promise<void> {
    await this.redis.hsetnx(keys.outcomes, recipientKey, encodeOutcome(outcome));
  }

  /** Counts these outcomes (each once ever) and answers the round's counters. */
  async record(
    campaignId: string,
    keys: CampaignRoundKeys,
    settled: readonly { key: string; outcome: LedgerOutcome }[],
  ): Promise<RoundState> {
    const args = settled.flatMap(({ key, outcome }) => [
      key,
      outcome.state === 'sent' ? 'sent' : 'failed',
    ]);
    const fields = (await this.redis.eval(
      RECORD_SCRIPT,
      3,
      keys.recorded,
      keys.counts,
      campaignRateKey(this.prefix, campaignId),
      ...args,
    )) as CountFields;
    return roundStateOf(fields);
  }

  /** Every batch is queued: the round's total is final. */
  async markDispatched(keys: CampaignRoundKeys, total: number): Promise<RoundState> {
    await this.redis.hset(keys.counts, 'total', total, 'dispatched', 1);
    return this.state(keys);
  }

  async state(keys: CampaignRoundKeys): Promise<RoundState> {
    return roundStateOf(
      await this.redis.hmget(keys.counts, 'sent', 'failed', 'v', 'total', 'dispatched'),
    );
  }

  /** A write of the campaign document that the next batch would make anyway: skipped when another writer is at it. */
  writeIfFree(campaignId: string, write: () => Promise<unknown>): Promise<unknown> {
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
