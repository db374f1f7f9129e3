import ratelimit from 'koa-ratelimit';
import type { Middleware } from 'koa';
import type { Redis } from '../queues/redis-connection';

export interface RateLimitOptions {
  redis: Redis;
  /** Distinguishes limits (and test runs) sharing one Redis. */
  name: string;
  max: number;
  windowMs: number;
}

/**
 * Per-IP limit counted in Redis, so every API replica shares it. When Redis
 * is unreachable the limit is skipped rather than refusing enquiries: losing
 * a visitor's message is worse than a short unthrottled window.
 */
export function rateLimit({ redis, name, max, windowMs }: RateLimitOptions): Middleware {
  const limiter = ratelimit({
    driver: 'redis',
    db: redis,
    duration: windowMs,
    max,
    id: (ctx) => `${name}:${ctx.ip}`,
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
      ctx.state.log.warn({ err: error }, 'rate limit store unavailable; request let through');
      await next();
    }
  };
}
