import {
  RLWrapperTimeouts,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { AuthConfig } from '../../config';
import { HttpError } from '../../errors';
import type { Redis } from '@agency/platform';

export interface LoginThrottle {
  /**
   * Takes one attempt from this address's allowance and from each account
   * key's before any secret is checked, or throws 429 with Retry-After when
   * any is used up. Each take is one atomic step in Redis, so a burst of
   * simultaneous guesses gets no more checks than the allowance however
   * they interleave.
   */
  reserve(ip: string, ...accounts: string[]): Promise<void>;
  /**
   * The reserved attempt was the right secret: the address gets it back and
   * the counts of these account keys start again (a wrong guess keeps its
   * reservation).
   */
  succeeded(ip: string, ...accounts: string[]): Promise<void>;
}

function attemptCounter(
  redis: Redis,
  keyPrefix: string,
  points: number,
  duration: number,
  timeoutMs: number,
) {
  // Counted in Redis so every API replica shares the count; counted in this
  // process's memory whenever Redis fails or is slower than the timeout.
  const insuranceLimiter = new RateLimiterMemory({ keyPrefix, points, duration });
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    // A fixed window that starts with the first attempt: however many more
    // arrive, the pause ends `duration` seconds after it, so the owner of a
    // targeted account waits at most the documented window.
    duration,
    rejectIfRedisNotReady: true,
    insuranceLimiter,
  });
  return new RLWrapperTimeouts({ limiter, timeoutMs, insuranceLimiter });
}

function tooManyAttempts(waitMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new HttpError(
    'RATE_LIMITED',
    `Too many failed sign-ins; try again in ${seconds} s`,
    undefined,
    { 'Retry-After': String(seconds) },
  );
}

/**
 * Sign-in attempts are counted per address (long window: one address cannot
 * try many accounts) and per account (short window: a burst from many
 * addresses against one account pauses it briefly, so its owner is never
 * locked out for long). The callers choose the account keys (auth.service.ts:
 * the name typed at the password step, both of the account's names after it).
 */
export function createLoginThrottle(
  redis: Redis,
  prefix: string,
  limits: AuthConfig['loginThrottle'],
  /**
   * A sign-in must answer even when Redis hangs: past this, this process's
   * memory counts instead. Exact limits across replicas hold while Redis
   * answers within it (REDIS_REQUEST_TIMEOUT_MS).
   */
  redisTimeoutMs: number,
): LoginThrottle {
  const perIp = attemptCounter(
    redis,
    `${prefix}:login:ip`,
    limits.ipMaxFailures,
    limits.ipWindowSeconds,
    redisTimeoutMs,
  );
  const perAccount = attemptCounter(
    redis,
    `${prefix}:login:account`,
    limits.accountMaxFailures,
    limits.accountWindowSeconds,
    redisTimeoutMs,
  );

  return {
    async reserve(ip, ...accounts) {
      const outcomes = await Promise.allSettled([
        perIp.consume(ip),
        ...accounts.map((account) => perAccount.consume(account)),
      ]);
      let waitMs = 0;
      for (const outcome of outcomes) {
        if (outcome.status === 'fulfilled') continue;
        const refusal: unknown = outcome.reason;
        // Anything but a refusal is a fault of the counters: never a silent pass.
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        waitMs = Math.max(waitMs, refusal.msBeforeNext);
      }
      if (outcomes.some((outcome) => outcome.status === 'rejected')) throw tooManyAttempts(waitMs);
    },
    async succeeded(ip, ...accounts) {
      await Promise.all([
        perIp.reward(ip, 1).catch(() => undefined),
        ...accounts.map((account) => perAccount.delete(account).catch(() => false)),
      ]);
    },
  };
}
