import {
  RLWrapperTimeouts,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { AuthConfig } from '../../config';
import { HttpError } from '../../errors';
import type { Redis } from '@agency/platform';

/** A sign-in must answer quickly even when Redis hangs: past this, memory counts. */
const REDIS_TIMEOUT_MS = 300;

export interface LoginThrottle {
  /** Throws 429 with Retry-After while this address or this account is paused. */
  assertAllowed(ip: string, account: string): Promise<void>;
  recordFailure(ip: string, account: string): Promise<void>;
  /** A successful sign-in clears the account's failures (the address keeps its count). */
  recordSuccess(account: string): Promise<void>;
}

function failureCounter(redis: Redis, keyPrefix: string, points: number, duration: number) {
  // Counted in Redis so every API replica shares the count; counted in this
  // process's memory whenever Redis fails or is slower than the timeout.
  const insuranceLimiter = new RateLimiterMemory({ keyPrefix, points, duration });
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration,
    rejectIfRedisNotReady: true,
    insuranceLimiter,
  });
  return new RLWrapperTimeouts({ limiter, timeoutMs: REDIS_TIMEOUT_MS, insuranceLimiter });
}

type Counter = ReturnType<typeof failureCounter>;

/** Milliseconds until the key may try again, or 0 when it may now. */
async function pausedFor(counter: Counter, points: number, key: string): Promise<number> {
  const state = await counter.get(key).catch(() => null);
  if (!state || state.consumedPoints < points) return 0;
  return Math.max(state.msBeforeNext, 1);
}

async function count(counter: Counter, key: string): Promise<void> {
  try {
    await counter.consume(key);
  } catch (error: unknown) {
    // Over the limit: the rejection is the count itself; nothing failed.
    if (!(error instanceof RateLimiterRes)) throw error;
  }
}

/**
 * Failed sign-ins are counted per address (long window: one address cannot
 * try many accounts) and per account (short window: a burst from many
 * addresses against one account pauses it briefly, so its owner is never
 * locked out for long).
 */
export function createLoginThrottle(
  redis: Redis,
  prefix: string,
  limits: AuthConfig['loginThrottle'],
): LoginThrottle {
  const perIp = failureCounter(
    redis,
    `${prefix}:login:ip`,
    limits.ipMaxFailures,
    limits.ipWindowSeconds,
  );
  const perAccount = failureCounter(
    redis,
    `${prefix}:login:account`,
    limits.accountMaxFailures,
    limits.accountWindowSeconds,
  );

  return {
    async assertAllowed(ip, account) {
      const [ipMs, accountMs] = await Promise.all([
        pausedFor(perIp, limits.ipMaxFailures, ip),
        pausedFor(perAccount, limits.accountMaxFailures, account),
      ]);
      const waitMs = Math.max(ipMs, accountMs);
      if (waitMs > 0) {
        const seconds = Math.ceil(waitMs / 1000);
        throw new HttpError(
          'RATE_LIMITED',
          `Too many failed sign-ins; try again in ${seconds} s`,
          undefined,
          { 'Retry-After': String(seconds) },
        );
      }
    },
    async recordFailure(ip, account) {
      await Promise.all([count(perIp, ip), count(perAccount, account)]);
    },
    async recordSuccess(account) {
      await perAccount.delete(account).catch(() => false);
    },
  };
}
