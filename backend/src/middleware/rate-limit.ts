import ratelimit from 'koa-ratelimit';
import type { Context, Middleware } from 'koa';
import type { Redis } from '@agency/platform';

export interface RateLimitOptions {
  /** A producer connection: its command timeout bounds how long a check may take. */
  redis: Redis;
  /** Distinguishes limits (and test runs) sharing one Redis. */
  name: string;
  max: number;
  windowMs: number;
}

/**
 * A limit counted in Redis, so every API replica shares it. When Redis
 * refuses, or does not answer within the connection's command timeout, the
 * request goes through unthrottled: a visitor who gets no answer sends again,
 * and losing an enquiry is worse than a short window without a limit.
 */
function failOpenLimit(
  { redis, name, max, windowMs }: RateLimitOptions,
  key: (ctx: Context) => string,
): Middleware {
  const limiter = ratelimit({
    driver: 'redis',
    db: redis,
    duration: windowMs,
    max,
    id: (ctx) => `${name}:${key(ctx)}`,
    throw: true,
    errorMessage: 'Too many requests, please try again later',
  });
  return async (ctx, next) => {
    let reachedHandler = false;
    try {
      await limiter(ctx, async () => {
        reachedHandler = true;
        await next();
      });
    } catch (error: unknown) {
      const limited = typeof error === 'object' && error !== null && 'status' in error;
      if (reachedHandler || limited) throw error;
      ctx.state.log.warn({ err: error, limit: name }, 'rate limit store unavailable; let through');
      await next();
    }
  };
}

/** Requests per client IP. */
export function rateLimit(options: RateLimitOptions): Middleware {
  return failOpenLimit(options, (ctx) => ctx.ip);
}

/**
 * Requests per key known only once the body is validated (an e-mail
 * address): `limitBy(key)` is the middleware counting that key.
 */
export function rateLimitBy(options: RateLimitOptions): (key: string) => Middleware {
  return (key) => failOpenLimit(options, () => key);
}
