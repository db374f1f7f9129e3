import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '@agency/platform';

declare module 'koa' {
  interface DefaultState {
    requestId: string;
    log: Logger;
  }
}

const SAFE_REQUEST_ID = /^[\w.-]{1,64}$/;

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
          path: ctx.path,
          status: ctx.status,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          ip: ctx.ip,
        },
        'request',
      );
    }
  };
}
