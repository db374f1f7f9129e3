import Router from '@koa/router';
import { Queue } from 'bullmq';
import {
  API_ROUTES,
  QUEUE_NAMES,
  listDeleteJobId,
  type ListDeleteJob,
  listMemberQuerySchema,
  listMemberSchema,
  mailingListQuerySchema,
  mailingListSchema,
} from '@agency/contracts';
import { MAIL_JOB_OPTIONS, erasureKeyOf, withTimeout, type Redis } from '@agency/platform';
import { addRecordRoutes } from '../../admin/record-routes';
import { audit, unaudited } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { recordIdParam, validateBody, validateQuery } from '../../middleware/validate';
import { HttpError } from '../../errors';
import {
  addListMember,
  createMailingList,
  getMailingList,
  listMailingLists,
  listMembers,
  removeListMember,
  requestListDeletion,
  updateMailingList,
} from './list.service';

const ENQUEUE_TIMEOUT_MS = 2000;

/** Mailing lists: everyone signed in sees them, managers and admins change them. */
export function listRoutes({
  redis,
  queuePrefix,
  mailLinkSecret,
}: {
  redis: Redis;
  queuePrefix: string;
  /** Derives the key of erased addresses' digests: staff cannot add one back. */
  mailLinkSecret: string;
}): Router {
  const router = new Router();
  const erasureKey = erasureKeyOf(mailLinkSecret);
  const deletions = new Queue<ListDeleteJob>(QUEUE_NAMES.listDelete, {
    connection: redis,
    prefix: queuePrefix,
    defaultJobOptions: MAIL_JOB_OPTIONS,
  });
  deletions.on('error', () => undefined);

  /**
   * 202 with the list's state: the list is marked as being deleted, and the
   * worker removes its members in bounded chunks, then the list. Asking
   * again while it is being deleted answers the same (and queues its job
   * again, which is a no-op while the job exists); once it is gone the id
   * is unknown (404). If Redis cannot take the job now, the list stays
   * marked and the worker's recovery pass queues it: the answer is the same.
   */
  router.delete(API_ROUTES.list, authorize('lists:write'), async (ctx) => {
    const id = recordIdParam(ctx);
    const { list, outcome } = await requestListDeletion(id);
    try {
      await withTimeout(
        deletions.add(QUEUE_NAMES.listDelete, { listId: id }, { jobId: listDeleteJobId(id) }),
        ENQUEUE_TIMEOUT_MS,
      );
    } catch (error: unknown) {
      ctx.state.log.warn({ err: error, listId: id }, 'list deletion not queued; recovery will');
    }
    if (outcome === 'started') audit(ctx, 'list.delete', { type: 'list', id, label: list.name });
    else unaudited(ctx);
    ctx.status = 202;
    ctx.body = list;
  });

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
    const member = await addListMember(
      id,
      input,
      { id: user.id, username: user.username },
      erasureKey,
    );
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
    labelOf: (list) => list.name,
  });
}
