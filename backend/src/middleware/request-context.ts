import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { API_ROUTES, matchesRoute } from '@agency/contracts';
import type { Logger } from '@agency/platform';

declare module 'koa' {
  interface DefaultState {
    requestId: string;
    log: Logger;
  }
}

const SAFE_REQUEST_ID = /^[\w.-]{1,64}$/;

/**
 * The open pixel's and tracking links' paths carry a token naming a
 * campaign's recipient: their log line names the route, not the token, and
 * not the reader's address, which campaign results never keep.
 */
const TRACKING_ROUTES = [API_ROUTES.trackOpen, API_ROUTES.trackClick] as const;

function loggedRequest(ctx: Context): { path: string; ip?: string } {
  const tracking = TRACKING_ROUTES.find((route) => matchesRoute(route, ctx.path));
  return tracking ? { path: tracking } : { path: ctx.path, ip: ctx.ip };
}

/**
 * Gives every request an id (kept from X-Request-Id when a proxy set a sane
 * one), a child logger carrying it, and one structured log line when done.
 */
export function requestContext(logger: Logger): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      ctx.state.log.info(
        {
          method: ctx.method,
          status: ctx.status,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          ...loggedRequest(ctx),
        },
        'request',
      );
    }
  };
}
