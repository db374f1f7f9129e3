import Router from '@koa/router';
import {
  API_ROUTES,
  erasureParamsSchema,
  formatValidationMessage,
  message,
  personAddressParamsSchema,
  personErasureSchema,
} from '@agency/contracts';
import { normalizeEmail } from '@agency/platform';
import { HttpError } from '../../errors';
import { audit } from '../../middleware/audit';
import { authorize } from '../../middleware/authorize';
import { requestLocale, validateBody, validateParams } from '../../middleware/validate';
import type { PrivacyService } from './privacy.service';

/**
 * A person's data download and erasure, for admins alone. The activity log
 * names the person by the address's keyed digest: the log must not become
 * one more place that holds the address.
 */
export function privacyRoutes(service: PrivacyService): Router {
  const router = new Router();

  router.get(API_ROUTES.personData, authorize('people:privacy'), async (ctx) => {
    const { email } = await validateParams(ctx, personAddressParamsSchema);
    const data = await service.exportPersonData(email);
    audit(ctx, 'person.data-export', { type: 'person', id: service.digestOf(email) });
    ctx.attachment(`person-data-${data.generatedAt.slice(0, 10)}.json`);
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = JSON.stringify(data, null, 2);
  });

  router.post(API_ROUTES.personErasure, authorize('people:privacy'), async (ctx) => {
    const { email } = await validateParams(ctx, personAddressParamsSchema);
    const { confirm } = await validateBody(ctx, personErasureSchema);
    if (normalizeEmail(confirm) !== normalizeEmail(email)) {
      throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
        confirm: formatValidationMessage(message('confirmMismatch'), requestLocale(ctx)),
      });
    }
    const erasure = await service.requestErasure(email);
    audit(ctx, 'person.erase', { type: 'person', id: erasure.id });
    ctx.status = 202;
    ctx.body = erasure;
  });

  router.get(API_ROUTES.erasure, authorize('people:privacy'), async (ctx) => {
    const { id } = await validateParams(ctx, erasureParamsSchema);
    ctx.body = await service.erasure(id);
  });

  return router;
}
