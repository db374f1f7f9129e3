import Router from '@koa/router';
import { API_ROUTES, peopleBulkSchema, peopleListQuerySchema } from '@agency/contracts';
import { applyPeopleBulk, zoneOf, type TimeZoneSource } from '@agency/platform';
import { HttpError } from '../../errors';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { validateBody, validateQuery } from '../../middleware/validate';
import { getPersonDetail } from './people-detail.service';
import { listPeople, peopleCsvStream } from './people.service';

const ADDRESS_MAX_LENGTH = 254;

/** The `:email` of a person's route: its length checked (the address is looked up, never parsed). */
function emailParam(params: Record<string, unknown> | undefined): string {
  const email = String(params?.email ?? '');
  if (email.length === 0 || email.length > ADDRESS_MAX_LENGTH) {
    throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
      email: 'Please enter a valid email address',
    });
  }
  return email;
}

/**
 * Everyone the product holds, one row per address: the roles that manage
 * lists see them, export them and act on them. The export and the bulk
 * action are declared before `/people/:email`, which would take their paths.
 */
export function peopleRoutes({ timeZone }: { timeZone: TimeZoneSource }): Router {
  const router = new Router();

  router.get(API_ROUTES.peopleExport, authorize('lists:write'), async (ctx) => {
    // The page's size and position do not apply: the export is every match.
    const query = await validateQuery(ctx, peopleListQuerySchema);
    audit(ctx, 'people.export', { type: 'people', label: ctx.querystring || 'all' });
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.attachment(`people-${new Date().toISOString().slice(0, 10)}.csv`);
    ctx.body = peopleCsvStream(query, await zoneOf(timeZone), (error) =>
      ctx.state.log.error({ err: error }, 'people export stopped'),
    );
  });

  router.post(API_ROUTES.peopleBulk, authorize('lists:write'), async (ctx) => {
    const input = await validateBody(ctx, peopleBulkSchema);
    const user = sessionUser(ctx.state);
    const result = await applyPeopleBulk(input, { id: user.id, username: user.username });
    audit(
      ctx,
      'people.bulk',
      { type: 'list', id: input.listId, label: `${input.action} ${input.emails.length}` },
      input.tag ? [{ field: 'tag', before: null, after: input.tag }] : undefined,
    );
    ctx.body = result;
  });

  router.get(API_ROUTES.people, authorize('lists:write'), async (ctx) => {
    const query = await validateQuery(ctx, peopleListQuerySchema);
    ctx.body = await listPeople(query, await zoneOf(timeZone));
  });

  router.get(API_ROUTES.person, authorize('lists:write'), async (ctx) => {
    ctx.body = await getPersonDetail(emailParam(ctx.params));
  });

  return router;
}
