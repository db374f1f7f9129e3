import Router from '@koa/router';
import {
  API_ROUTES,
  listMemberQuerySchema,
  listMemberSchema,
  mailingListQuerySchema,
  mailingListSchema,
} from '@agency/contracts';
import { addRecordRoutes } from '../../admin/record-routes';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { recordIdParam, validateBody, validateQuery } from '../../middleware/validate';
import { HttpError } from '../../errors';
import {
  addListMember,
  createMailingList,
  deleteMailingList,
  getMailingList,
  listMailingLists,
  listMembers,
  removeListMember,
  updateMailingList,
} from './list.service';

/** Mailing lists: everyone signed in sees them, managers and admins change them. */
export function listRoutes(): Router {
  const router = new Router();

  router.get(API_ROUTES.listMembers, authorize('lists:read'), async (ctx) => {
    ctx.body = await listMembers(
      recordIdParam(ctx),
      await validateQuery(ctx, listMemberQuerySchema),
    );
  });

  router.post(API_ROUTES.listMembers, authorize('lists:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const input = await validateBody(ctx, listMemberSchema);
    const user = sessionUser(ctx.state);
    const member = await addListMember(id, input, { id: user.id, username: user.username });
    audit(ctx, 'list.member-add', { type: 'list', id, label: member.email });
    ctx.status = 201;
    ctx.body = member;
  });

  router.delete(API_ROUTES.listMember, authorize('lists:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const email = String(ctx.params.email ?? '');
    if (email.length === 0 || email.length > 254) {
      throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
        email: 'Please enter a valid email address',
      });
    }
    const member = await removeListMember(id, email);
    audit(ctx, 'list.member-remove', { type: 'list', id, label: member.email });
    ctx.status = 204;
  });

  return addRecordRoutes(router, {
    kind: 'list',
    collection: API_ROUTES.lists,
    item: API_ROUTES.list,
    read: 'lists:read',
    write: 'lists:write',
    listQuerySchema: mailingListQuerySchema,
    createSchema: mailingListSchema,
    updateSchema: mailingListSchema,
    list: listMailingLists,
    get: getMailingList,
    create: createMailingList,
    update: updateMailingList,
    remove: deleteMailingList,
    labelOf: (list) => list.name,
  });
}
