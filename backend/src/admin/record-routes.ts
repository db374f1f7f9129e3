import type Router from '@koa/router';
import type { ApiRoute, Permission } from '@agency/contracts';
import type { Context } from 'koa';
import type { ISchema } from 'yup';
import { fieldChanges } from '../activity-changes';
import { audit } from '../middleware/audit';
import { sessionUser } from '../middleware/authenticate';
import { authorize } from '../middleware/authorize';
import { recordIdParam, validateBody, validateQuery } from '../middleware/validate';

/** The admin records kept with list, read, create, update and delete calls. */
type RecordKind = 'user' | 'client' | 'lead' | 'campaign' | 'list' | 'template' | 'segment';

export interface RecordRoutes<Query, Create, Update, Dto extends { id: string }> {
  /** Names the activity log's entries (`client.create`, ...) and their target. */
  kind: RecordKind;
  /** The collection's route (list, create) and one record's (`:id`: read, update, delete). */
  collection: ApiRoute;
  item: ApiRoute;
  read: Permission;
  write: Permission;
  listQuerySchema: ISchema<Query>;
  createSchema: ISchema<Create>;
  updateSchema: ISchema<Update>;
  list(query: Query): Promise<unknown>;
  get(id: string): Promise<unknown>;
  /** `actorId`: the signed-in user who asks (a campaign's author, a user who may not delete themself). */
  create(input: Create, actorId: string): Promise<Dto>;
  update(id: string, input: Update, actorId: string): Promise<Dto>;
  /** Absent when the record's module answers DELETE itself (a list's deletion is a job). */
  remove?(id: string, actorId: string): Promise<Dto>;
  /** What the activity log names the record by. */
  labelOf(record: Dto): string;
  /** Input fields whose values the activity log never keeps (a password): only that they changed. */
  secretFields?: readonly string[];
}

/**
 * The five calls every admin record has, on `router`: GET and POST on the
 * collection (a page, with the list's query; a new record, 201), and GET, PUT
 * and DELETE (204) on one record. Each checks the role's permission, validates
 * with the record's schemas from contracts, and writes to the activity log
 * what it changed. A malformed id is a 400 naming `id`.
 */
export function addRecordRoutes<Query, Create, Update, Dto extends { id: string }>(
  router: Router,
  routes: RecordRoutes<Query, Create, Update, Dto>,
): Router {
  const { kind, read, write } = routes;
  const secretsOf = (input: unknown): Record<string, unknown> =>
    Object.fromEntries(
      (routes.secretFields ?? []).map((field) => [
        field,
        (input as Record<string, unknown>)[field],
      ]),
    );
  const logged = (
    ctx: Context,
    action: 'create' | 'update' | 'delete',
    record: Dto,
    changes: ReturnType<typeof fieldChanges>,
  ) =>
    audit(
      ctx,
      `${kind}.${action}`,
      { type: kind, id: record.id, label: routes.labelOf(record) },
      changes,
    );
  const actorId = (ctx: Context) => sessionUser(ctx.state).id;

  router.get(routes.collection, authorize(read), async (ctx) => {
    ctx.body = await routes.list(await validateQuery(ctx, routes.listQuerySchema));
  });

  router.post(routes.collection, authorize(write), async (ctx) => {
    const input = await validateBody(ctx, routes.createSchema);
    const record = await routes.create(input, actorId(ctx));
    logged(ctx, 'create', record, fieldChanges(null, record, secretsOf(input)));
    ctx.status = 201;
    ctx.body = record;
  });

  router.get(routes.item, authorize(read), async (ctx) => {
    ctx.body = await routes.get(recordIdParam(ctx));
  });

  router.put(routes.item, authorize(write), async (ctx) => {
    const id = recordIdParam(ctx);
    const input = await validateBody(ctx, routes.updateSchema);
    // The record as it was, for the activity log's before and after.
    const before = (await routes.get(id)) as object;
    const record = await routes.update(id, input, actorId(ctx));
    logged(ctx, 'update', record, fieldChanges(before, record, secretsOf(input)));
    ctx.body = record;
  });

  const { remove } = routes;
  if (remove) {
    router.delete(routes.item, authorize(write), async (ctx) => {
      const record = await remove(recordIdParam(ctx), actorId(ctx));
      logged(ctx, 'delete', record, fieldChanges(record, null));
      ctx.status = 204;
    });
  }

  return router;
}
