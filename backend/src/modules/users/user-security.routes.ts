import Router from '@koa/router';
import { API_ROUTES } from '@agency/contracts';
import { HttpError } from '../../errors';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { recordIdParam } from '../../middleware/validate';
import { endAllSessionsOf, findUsernameById, removeTwoFactor } from '@agency/platform';

async function labelOf(id: string): Promise<string> {
  const username = await findUsernameById(id);
  if (username === null) throw new HttpError('NOT_FOUND', 'No user with this id');
  return username;
}

/**
 * An admin's help for a staff member who lost their phone or a device:
 * reset their second factor (they enrol again at the next sign-in), or end
 * every session they have. Both take effect on the user's next request.
 * An admin's own second factor is not reset here.
 */
export function userSecurityRoutes(): Router {
  const router = new Router();

  router.delete(API_ROUTES.userTwoFactor, authorize('users:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    // One's own second factor changes in Settings, which asks for the
    // password: an admin's session alone must not take it off.
    if (id === sessionUser(ctx.state).id) {
      throw new HttpError(
        'CONFLICT',
        'Change your own two-factor sign-in in Settings; another admin can reset it here',
      );
    }
    const label = await labelOf(id);
    // A reset also ends the user's sessions: whoever holds the lost phone
    // may be signed in with it.
    await removeTwoFactor(id, { endSessions: true });
    audit(ctx, 'user.two-factor-reset', { type: 'user', id, label });
    ctx.status = 204;
  });

  router.delete(API_ROUTES.userSessions, authorize('users:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const label = await labelOf(id);
    await endAllSessionsOf(id);
    audit(ctx, 'user.sessions-end', { type: 'user', id, label });
    ctx.status = 204;
  });

  return router;
}
