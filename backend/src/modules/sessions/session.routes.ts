import Router from '@koa/router';
import { API_ROUTES } from '@agency/contracts';
import type { SessionListResponse } from '@agency/contracts';
import { HttpError } from '../../errors';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { idParam } from '../../middleware/validate';
import { endSession, isSessionId, listActiveSessions } from './session.service';

/**
 * A signed-in user's own sessions: list them, end one, sign out. Ending all
 * the others asks for the password and lives with the account's routes.
 */
export function ownSessionRoutes(): Router {
  const router = new Router();

  router.get(API_ROUTES.mySessions, async (ctx) => {
    const user = sessionUser(ctx.state);
    const body: SessionListResponse = {
      items: await listActiveSessions(user.id, user.tokenVersion, user.sessionId),
    };
    ctx.body = body;
  });

  router.delete(API_ROUTES.mySession, async (ctx) => {
    const user = sessionUser(ctx.state);
    const id = idParam(ctx, isSessionId);
    if (!(await endSession(user.id, id))) {
      throw new HttpError('NOT_FOUND', 'No active session of yours with this id');
    }
    audit(ctx, 'auth.session-end', { type: 'session', id, label: user.username });
    ctx.status = 204;
  });

  // Sign Out ends this session on the server too: a copy of the token is worthless after it.
  router.post(API_ROUTES.logout, async (ctx) => {
    const user = sessionUser(ctx.state);
    await endSession(user.id, user.sessionId);
    audit(ctx, 'auth.logout', { type: 'session', id: user.sessionId, label: user.username });
    ctx.status = 204;
  });

  return router;
}
