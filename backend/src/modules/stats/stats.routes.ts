import Router from '@koa/router';
import { enquiryTrendQuerySchema } from '@agency/contracts';
import { authorize } from '../../middleware/authorize';
import { validateQuery } from '../../middleware/validate';
import { dashboardStats, enquiryTrend } from './stats.service';

export function statsRoutes({ timeZone }: { timeZone: string }): Router {
  const router = new Router();
  router.get('/api/admin/stats', authorize('stats:read'), async (ctx) => {
    ctx.body = await dashboardStats(timeZone);
  });
  router.get('/api/admin/stats/enquiries', authorize('stats:read'), async (ctx) => {
    const { days } = await validateQuery(ctx, enquiryTrendQuerySchema);
    ctx.body = await enquiryTrend(timeZone, days);
  });
  return router;
}
