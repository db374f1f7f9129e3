import Router from '@koa/router';
import { API_ROUTES, enquiryTrendQuerySchema } from '@agency/contracts';
import { authorize } from '../../middleware/authorize';
import { validateQuery } from '../../middleware/validate';
import type { KeptCounts } from '@agency/platform';
import { dashboardStats, enquiryTrend } from './stats.service';

export function statsRoutes({ kept, timeZone }: { kept: KeptCounts; timeZone: string }): Router {
  const router = new Router();
  router.get(API_ROUTES.stats, authorize('stats:read'), async (ctx) => {
    ctx.body = await dashboardStats(kept, timeZone);
  });
  router.get(API_ROUTES.statsEnquiries, authorize('stats:read'), async (ctx) => {
    const { days } = await validateQuery(ctx, enquiryTrendQuerySchema);
    ctx.body = await enquiryTrend(kept, timeZone, days);
  });
  return router;
}
