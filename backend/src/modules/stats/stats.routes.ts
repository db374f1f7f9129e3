import Router from '@koa/router';
import { API_ROUTES, enquiryTrendQuerySchema } from '@agency/contracts';
import { authorize } from '../../middleware/authorize';
import { validateQuery } from '../../middleware/validate';
import { zoneOf, type KeptCounts, type TimeZoneSource } from '@agency/platform';
import { dashboardStats, enquiryTrend } from './stats.service';

export function statsRoutes({
  kept,
  timeZone,
}: {
  kept: KeptCounts;
  /** "Today" and "this week" are the agency's as its settings say now. */
  timeZone: TimeZoneSource;
}): Router {
  const router = new Router();
  router.get(API_ROUTES.stats, authorize('stats:read'), async (ctx) => {
    ctx.body = await dashboardStats(kept, await zoneOf(timeZone));
  });
  router.get(API_ROUTES.statsEnquiries, authorize('stats:read'), async (ctx) => {
    const { days } = await validateQuery(ctx, enquiryTrendQuerySchema);
    ctx.body = await enquiryTrend(kept, await zoneOf(timeZone), days);
  });
  return router;
}
