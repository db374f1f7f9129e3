import type { Middleware } from 'koa';
import { HttpError } from '../errors';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * The API speaks JSON only: a body of any other type is refused with 415.
 * `formPaths` are the exceptions a standard imposes (the RFC 8058 one-click
 * unsubscribe posts a form); their handlers never read that body.
 */
export function requireJson({
  formPaths = [],
  rawBodies = () => false,
}: {
  formPaths?: readonly string[];
  /** Routes that read their own body (a signed webhook, a file upload) and check its type. */
  rawBodies?: (path: string) => boolean;
} = {}): Middleware {
  const exempt = new Set(formPaths);
  return async (ctx, next) => {
    if (exempt.has(ctx.path) || rawBodies(ctx.path)) {
      await next();
      return;
    }
    if (METHODS_WITH_BODY.has(ctx.method) && ctx.request.length !== 0 && ctx.request.type) {
      if (!ctx.is('application/json')) {
        throw new HttpError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON');
      }
    }
    await next();
  };
}
