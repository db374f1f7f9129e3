import type { Middleware } from 'koa';
import { can, type Permission } from '@agency/contracts';
import { HttpError } from '../errors';
import { sessionUser } from './authenticate';

/** Refuses (403) a signed-in user whose role lacks the permission, per the table in contracts. */
export function authorize(permission: Permission): Middleware {
  return async (ctx, next) => {
    const user = sessionUser(ctx.state);
    if (!can(user.role, permission)) {
      throw new HttpError('FORBIDDEN', 'Your role does not allow this');
    }
    await next();
  };
}
