import type { Middleware } from 'koa';
import { API_ROUTES } from '@agency/contracts';
import type { Queue } from 'bullmq';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { KoaAdapter } from '@bull-board/koa';
import { HttpError } from '../../errors';
import { unauthenticated, type SessionResolver } from '../../middleware/authenticate';

export const QUEUE_BOARD_PATH = API_ROUTES.queues;
/** POST here with the bearer token: answers a cookie so a browser tab can open the board. */
export const QUEUE_BOARD_SESSION_PATH = `${QUEUE_BOARD_PATH}/session`;
const SESSION_COOKIE = 'queue_board_session';

/**
 * bull-board's page loads its scripts and styles from its own path; the API's
 * `default-src 'none'` would block them.
 */
const BOARD_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline' https://fonts.googleapis.com; font-src 'self' https://fonts.gstatic.com; img-src 'self' data:; frame-ancestors 'none'";

function tokenOf(authorization: string, cookie: string | undefined): string | undefined {
  const bearer = /^Bearer (\S+)$/.exec(authorization)?.[1];
  return bearer ?? cookie;
}

export interface QueueBoardOptions {
  queues: readonly Queue[];
  resolveSession: SessionResolver;
  /** How long the board's cookie lasts: no longer than a sign-in. */
  sessionSeconds: number;
}

/**
 * bull-board (every queue: waiting, failed, retry, clean) under the admin
 * area, for the admin role only. A browser opening the page sends no bearer
 * token, so the dashboard first POSTs to `/session` with it and gets an
 * HttpOnly, SameSite=Strict cookie scoped to this path (the signed-in token
 * itself, so signing out or a changed role ends it as well).
 */
export function queueBoard({
  queues,
  resolveSession,
  sessionSeconds,
}: QueueBoardOptions): Middleware {
  const adapter = new KoaAdapter();
  adapter.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue)),
    serverAdapter: adapter,
  });
  const board = adapter.registerPlugin();

  return async (ctx, next) => {
    if (ctx.path !== QUEUE_BOARD_PATH && !ctx.path.startsWith(`${QUEUE_BOARD_PATH}/`)) {
      return next();
    }
    ctx.set('Cache-Control', 'no-store');
    const authorization = ctx.get('authorization');
    const token = tokenOf(authorization, ctx.cookies.get(SESSION_COOKIE));
    const user = token ? await resolveSession(token) : null;
    if (!user) throw unauthenticated();
    if (user.role !== 'admin') {
      throw new HttpError('FORBIDDEN', 'Only an admin may open the queues');
    }
    if (ctx.path === QUEUE_BOARD_SESSION_PATH && ctx.method === 'POST') {
      // Only from the dashboard's own call with the bearer token, never from the cookie itself.
      if (!authorization) throw unauthenticated();
      ctx.cookies.set(SESSION_COOKIE, token, {
        httpOnly: true,
        sameSite: 'strict',
        path: QUEUE_BOARD_PATH,
        secure: ctx.secure,
        maxAge: sessionSeconds * 1000,
        overwrite: true,
      });
      ctx.status = 204;
      return;
    }
    await board(ctx, next);
    ctx.set('Content-Security-Policy', BOARD_CSP);
  };
}
