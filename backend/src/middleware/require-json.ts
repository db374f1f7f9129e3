import type { Middleware } from 'koa';
import { HttpError } from '../errors';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** The API speaks JSON only: a body of any other type is refused with 415. */
export function requireJson(): Middleware {
  return async (ctx, next) => {
    if (METHODS_WITH_BODY.has(ctx.method) && ctx.request.length !== 0 && ctx.request.type) {
      if (!ctx.is('application/json')) {
        throw new HttpError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON');
      }
    }
    await next();
  };
}
