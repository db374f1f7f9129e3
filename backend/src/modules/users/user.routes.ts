import Router from '@koa/router';
import { userCreateSchema, userListQuerySchema, userUpdateSchema } from '@agency/contracts';
import { authorize } from '../../middleware/authorize';
import { sessionUser } from '../../middleware/authenticate';
import { audit } from '../../middleware/audit';
import { recordIdParam, validateBody, validateQuery } from '../../middleware/validate';
import { createUser, deleteUser, getUser, listUsers, updateUser } from './user.service';

/** User management: the admin role only (users:read, users:write). */
export function userRoutes(): Router {
  const router = new Router({ prefix: '/api/admin/users' });

  router.get('/', authorize('users:read'), async (ctx) => {
    ctx.body = await listUsers(await validateQuery(ctx, userListQuerySchema));
  });

  router.post('/', authorize('users:write'), async (ctx) => {
    const user = await createUser(await validateBody(ctx, userCreateSchema));
    audit(ctx, 'user.create', { type: 'user', id: user.id, label: user.username });
    ctx.status = 201;
    ctx.body = user;
  });

  router.get('/:id', authorize('users:read'), async (ctx) => {
    ctx.body = await getUser(recordIdParam(ctx));
  });

  router.put('/:id', authorize('users:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const user = await updateUser(id, await validateBody(ctx, userUpdateSchema));
    audit(ctx, 'user.update', { type: 'user', id: user.id, label: user.username });
    ctx.body = user;
  });

  router.delete('/:id', authorize('users:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const user = await deleteUser(id, sessionUser(ctx.state).id);
    audit(ctx, 'user.delete', { type: 'user', id: user.id, label: user.username });
    ctx.status = 204;
  });

  return router;
}
