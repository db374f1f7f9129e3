import Router from '@koa/router';
import { API_ROUTES, activityLogListQuerySchema } from '@agency/contracts';
import { authorize } from '../../middleware/authorize';
import { validateQuery } from '../../middleware/validate';
import { listActivity } from './activity-log.service';

export function activityLogRoutes(): Router {
  const router = new Router();
  router.get(API_ROUTES.activityLogs, authorize('activity:read'), async (ctx) => {
    ctx.body = await listActivity(await validateQuery(ctx, activityLogListQuerySchema));
  });
  return router;
}
