import Router from '@koa/router';
import {
  API_ROUTES,
  userCreateSchema,
  userListQuerySchema,
  userUpdateSchema,
} from '@agency/contracts';
import { addRecordRoutes } from '../../admin/record-routes';
import { createUser, deleteUser, getUser, listUsers, updateUser } from './user.service';

/** User management: the admin role only (users:read, users:write). */
export function userRoutes(): Router {
  return addRecordRoutes(new Router(), {
    kind: 'user',
    collection: API_ROUTES.users,
    item: API_ROUTES.user,
    read: 'users:read',
    write: 'users:write',
    listQuerySchema: userListQuerySchema,
    createSchema: userCreateSchema,
    // The password is optional here: left out, it stays as it is.
    updateSchema: userUpdateSchema,
    list: listUsers,
    get: getUser,
    create: createUser,
    update: updateUser,
    // Nobody deletes their own account (the service refuses it).
    remove: deleteUser,
    labelOf: (user) => user.username,
    secretFields: ['password'],
  });
}
