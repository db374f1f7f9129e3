import Router from '@koa/router';
import { authorize } from '../../middleware/authorize';
import { dashboardStats } from './stats.service';

export function statsRoutes({ timeZone }: { timeZone: string }): Router {
  const router = new Router();
  router.get('/api/admin/stats', authorize('stats:read'), async (ctx) => {
    ctx.body = await dashboardStats(timeZone);
  });
  return router;
}
