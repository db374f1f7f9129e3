import { DomainError } from '@agency/platform';
import type { Middleware } from 'koa';
import { HttpError } from '../errors';

interface StatusError {
  status?: unknown;
  expose?: unknown;
  type?: unknown;
  message?: unknown;
  headers?: unknown;
}

/** Body-parser and koa errors carry a status; map them onto our error codes. */
function fromStatusError(error: StatusError): HttpError | undefined {
  const status = typeof error.status === 'number' ? error.status : undefined;
  const headers =
    typeof error.headers === 'object' && error.headers !== null
      ? Object.fromEntries(
          Object.entries(error.headers as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
        )
      : undefined;
  switch (status) {
    case 400:
      return new HttpError(
        'BAD_REQUEST',
        error.type === 'entity.parse.failed' || /JSON/i.test(String(error.message))
          ? 'The request body is not valid JSON'
          : 'The request is malformed',
      );
    case 401:
      return new HttpError('UNAUTHENTICATED', 'Authentication is required');
    case 403:
      return new HttpError('FORBIDDEN', 'You are not allowed to do this');
    case 404:
      return new HttpError('NOT_FOUND', 'Not found');
    case 413:
      return new HttpError('PAYLOAD_TOO_LARGE', 'The request body is too large');
    case 415:
      return new HttpError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON');
    case 429:
      return new HttpError(
        'RATE_LIMITED',
        'Too many requests, please try again later',
        undefined,
        headers,
      );
    default:
      return undefined;
  }
}

/**
 * Every failure leaves as the JSON error body of docs/architecture.md; a 500
 * never shows its stack or message, which may carry internals.
 */
export function errorHandler(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new HttpError('NOT_FOUND', `No route for ${ctx.method} ${ctx.path}`);
      }
    } catch (caught: unknown) {
      const known =
        caught instanceof DomainError
          ? HttpError.from(caught)
          : typeof caught === 'object' && caught !== null
            ? fromStatusError(caught as StatusError)
            : undefined;
      const error = known ?? new HttpError('INTERNAL', 'Something went wrong on our side');
      if (!known) ctx.state.log.error({ err: caught }, 'unhandled error');
      ctx.status = error.status;
      if (error.headers) ctx.set(error.headers);
      ctx.body = error.toBody();
    }
  };
}
