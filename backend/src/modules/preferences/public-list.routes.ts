import Router from '@koa/router';
import {
  API_ROUTES,
  DEFAULT_LOCALE,
  publicListQuerySchema,
  type PublicListsResponse,
} from '@agency/contracts';
import type { Redis } from '@agency/platform';
import { rateLimit } from '../../middleware/rate-limit';
import { validateQuery } from '../../middleware/validate';
import { listPublicLists } from './public-list.service';

export interface PublicListRoutesDeps {
  redis: Redis;
  rateLimit: { name: string; windowMs: number; perIpMax: number };
}

/**
 * The public lists, read-only and without an account: the sign-up form and
 * the preference page show them. Only names and descriptions leave the
 * store; how many people a list holds is the agency's business.
 */
export function publicListRoutes({ redis, rateLimit: limits }: PublicListRoutesDeps): Router {
  const router = new Router();
  const perIp = rateLimit({
    redis,
    name: limits.name,
    max: limits.perIpMax,
    windowMs: limits.windowMs,
  });
  router.get(API_ROUTES.publicLists, perIp, async (ctx) => {
    const { lang } = await validateQuery(ctx, publicListQuerySchema);
    const locale = lang ?? DEFAULT_LOCALE;
    const body: PublicListsResponse = { locale, items: await listPublicLists(locale) };
    ctx.body = body;
  });
  return router;
}
