import Router from '@koa/router';
import { API_ROUTES, enquiryTrendQuerySchema } from '@agency/contracts';
import { authorize } from '../../middleware/authorize';
import { validateQuery } from '../../middleware/validate';
import { dashboardStats, enquiryTrend } from './stats.service';

export function statsRoutes({ timeZone }: { timeZone: string }): Router {
  const router = new Router();
  router.get(API_ROUTES.stats, authorize('stats:read'), async (ctx) => {
    ctx.body = await dashboardStats(timeZone);
  });
  router.get(API_ROUTES.statsEnquiries, authorize('stats:read'), async (ctx) => {
    const { days } = await validateQuery(ctx, enquiryTrendQuerySchema);
    ctx.body = await enquiryTrend(timeZone, days);
  });
  return router;
}
