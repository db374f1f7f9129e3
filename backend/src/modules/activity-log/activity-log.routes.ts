import Router from '@koa/router';
import type { Context } from 'koa';
import {
  API_ROUTES,
  activityLogListQuerySchema,
  formatValidationMessage,
  message,
} from '@agency/contracts';
import { HttpError } from '../../errors';
import { authorize } from '../../middleware/authorize';
import { requestLocale, validateQuery } from '../../middleware/validate';
import { listActivity } from '@agency/platform';

/**
 * `?action[$ne]=x` reaches Koa as a key named "action[$ne]", which the schema
 * would strip, answering the unfiltered log as if it were the filtered one.
 * A key shaped as an operator or a nested field is refused instead, naming
 * the field it tried to reach.
 */
function refuseOperatorKeys(ctx: Context): void {
  for (const key of Object.keys(ctx.query)) {
    const nested = /^([^[\]]*)\[/.exec(key);
    if (!nested && !key.startsWith('$')) continue;
    const field = nested?.[1] || key;
    throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
      [field]: formatValidationMessage(message('mustBeText'), requestLocale(ctx)),
    });
  }
}

export function activityLogRoutes(): Router {
  const router = new Router();
  router.get(API_ROUTES.activityLogs, authorize('activity:read'), async (ctx) => {
    refuseOperatorKeys(ctx);
    ctx.body = await listActivity(await validateQuery(ctx, activityLogListQuerySchema));
  });
  return router;
}
