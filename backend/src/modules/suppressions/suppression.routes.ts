import Router from '@koa/router';
import { API_ROUTES, suppressionQuerySchema, suppressionSchema } from '@agency/contracts';
import { HttpError } from '../../errors';
import { audit } from '../../middleware/audit';
import { sessionUser } from '../../middleware/authenticate';
import { authorize } from '../../middleware/authorize';
import { validateBody, validateQuery } from '../../middleware/validate';
import {
  addSuppression,
  listSuppressions,
  removeSuppression,
  suppressionCsvStream,
} from './suppression.service';

/** The suppression list: managers and admins see, add, remove and export it. */
export function suppressionRoutes(): Router {
  const router = new Router();

  router.get(API_ROUTES.suppressions, authorize('suppressions:read'), async (ctx) => {
    ctx.body = await listSuppressions(await validateQuery(ctx, suppressionQuerySchema));
  });

  router.get(API_ROUTES.suppressionsExport, authorize('suppressions:read'), async (ctx) => {
    const query = await validateQuery(ctx, suppressionQuerySchema);
    audit(ctx, 'suppression.export', { type: 'suppression', label: ctx.querystring || 'all' });
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.attachment(`suppressions-${new Date().toISOString().slice(0, 10)}.csv`);
    ctx.body = suppressionCsvStream(query, (error) =>
      ctx.state.log.error({ err: error }, 'suppression export stopped'),
    );
  });

  router.post(API_ROUTES.suppressions, authorize('suppressions:write'), async (ctx) => {
    const input = await validateBody(ctx, suppressionSchema);
    const user = sessionUser(ctx.state);
    const entry = await addSuppression(input, { id: user.id, username: user.username });
    audit(ctx, 'suppression.add', { type: 'suppression', id: entry.key, label: entry.email });
    ctx.status = 201;
    ctx.body = entry;
  });

  router.delete(API_ROUTES.suppression, authorize('suppressions:write'), async (ctx) => {
    const email = String(ctx.params.email ?? '');
    if (email.length === 0 || email.length > 254) {
      throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
        email: 'Please enter a valid email address',
      });
    }
    const entry = await removeSuppression(email);
    audit(ctx, 'suppression.remove', { type: 'suppression', id: entry.key, label: entry.email }, [
      { field: 'reason', before: entry.reason, after: null },
    ]);
    ctx.status = 204;
  });

  return router;
}
