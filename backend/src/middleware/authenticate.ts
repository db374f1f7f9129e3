import type { Middleware } from 'koa';
import type { AuthUserDto } from '@agency/contracts';
import { HttpError } from '../errors';

/** The signed-in user a request acts for, as loaded from the store, and the session it came from. */
export type SessionUser = AuthUserDto & {
  sessionId: string;
  /** The user's token version: sessions of an older one no longer stand. */
  tokenVersion: number;
};

declare module 'koa' {
  interface DefaultState {
    /** Set by authenticate() on admin routes. */
    user?: SessionUser;
  }
}

/** Turns a bearer token into its user, or null when it is not (or no longer) valid. */
export type SessionResolver = (token: string) => Promise<SessionUser | null>;

const BEARER = /^Bearer ([A-Za-z0-9._~+/-]+=*)$/;

export function unauthenticated(message = 'Please sign in'): HttpError {
  return new HttpError('UNAUTHENTICATED', message, undefined, {
    'WWW-Authenticate': 'Bearer realm="admin"',
  });
}

/**
 * Admin routes need a valid bearer token. A missing, malformed, expired,
 * tampered or revoked token all get the same 401, so nothing tells a caller
 * which of them it was.
 */
export function authenticate(resolve: SessionResolver): Middleware {
  return async (ctx, next) => {
    const match = BEARER.exec(ctx.get('authorization'));
    if (!match?.[1]) throw unauthenticated();
    const user = await resolve(match[1]);
    if (!user) throw unauthenticated('Your session has expired or is not valid; please sign in');
    ctx.state.user = user;
    await next();
  };
}

/** The user of an authenticated request; routes behind authenticate() only. */
export function sessionUser(state: { user?: SessionUser }): SessionUser {
  if (!state.user) throw unauthenticated();
  return state.user;
}
