import Router from '@koa/router';
import {
  API_ROUTES,
  PEOPLE_PERMISSION,
  peopleBulkSchema,
  peopleListQuerySchema,
  type PeopleBulkInput,
  type PeopleBulkResultDto,
} from '@agency/contracts';
import {
  applyPeopleBulk,
  erasedAmong,
  erasureKeyOf,
  normalizeEmail,
  type StalePeople,
  zoneOf,
  type ErasureKey,
  type TimeZoneSource,
} from '@agency/platform';
import { HttpError } from '../../errors';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { validateBody, validateQuery } from '../../middleware/validate';
import { refreshMarkedPeopleFirst } from '../../middleware/refresh-marked-people';
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
 * A bulk action, but never adding back to a list an address erased at its
 * owner's request (only their own new sign-up may): those count as unchanged.
 */
async function bulkWithoutErased(
  input: PeopleBulkInput,
  by: { id: string; username: string },
  erasureKey: ErasureKey,
): Promise<PeopleBulkResultDto> {
  if (input.action !== 'add-to-list') return applyPeopleBulk(input, by);
  const erased = await erasedAmong(erasureKey, input.emails);
  const emails = input.emails.filter((email) => !erased.has(normalizeEmail(email)));
  if (emails.length === 0) return { changed: 0, unchanged: input.emails.length };
  const result = await applyPeopleBulk({ ...input, emails }, by);
  return {
    changed: result.changed,
    unchanged: result.unchanged + input.emails.length - emails.length,
  };
}

/**
 * Everyone the product holds, one row per address: the roles that manage
 * lists see them, export them and act on them. The export and the bulk
 * action are declared before `/people/:email`, which would take their paths.
 */
export function peopleRoutes({
  timeZone,
  mailLinkSecret,
  stalePeople,
}: {
  timeZone: TimeZoneSource;
  mailLinkSecret: string;
  stalePeople: StalePeople;
}): Router {
  const router = new Router();
  const erasureKey = erasureKeyOf(mailLinkSecret);
  const fresh = refreshMarkedPeopleFirst(stalePeople);

  router.get(API_ROUTES.peopleExport, authorize(PEOPLE_PERMISSION), fresh, async (ctx) => {
    // The page's size and position do not apply: the export is every match.
    const query = await validateQuery(ctx, peopleListQuerySchema);
    audit(ctx, 'people.export', { type: 'people', label: ctx.querystring || 'all' });
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.attachment(`people-${new Date().toISOString().slice(0, 10)}.csv`);
    ctx.body = peopleCsvStream(query, await zoneOf(timeZone), (error) =>
      ctx.state.log.error({ err: error }, 'people export stopped'),
    );
  });

  router.post(API_ROUTES.peopleBulk, authorize(PEOPLE_PERMISSION), async (ctx) => {
    const input = await validateBody(ctx, peopleBulkSchema);
    const user = sessionUser(ctx.state);
    const result = await bulkWithoutErased(
      input,
      { id: user.id, username: user.username },
      erasureKey,
    );
    audit(
      ctx,
      'people.bulk',
      { type: 'list', id: input.listId, label: `${input.action} ${input.emails.length}` },
      input.tag ? [{ field: 'tag', before: null, after: input.tag }] : undefined,
    );
    ctx.body = result;
  });

  router.get(API_ROUTES.people, authorize(PEOPLE_PERMISSION), fresh, async (ctx) => {
    const query = await validateQuery(ctx, peopleListQuerySchema);
    ctx.body = await listPeople(query, await zoneOf(timeZone));
  });

  router.get(API_ROUTES.person, authorize(PEOPLE_PERMISSION), fresh, async (ctx) => {
    ctx.body = await getPersonDetail(emailParam(ctx.params));
  });

  return router;
}
