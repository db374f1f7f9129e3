import Router from '@koa/router';
import { API_ROUTES, newsletterTokenSchema, preferenceUpdateSchema } from '@agency/contracts';
import type { Redis, SubscriberChanges } from '@agency/platform';
import { rateLimit } from '../../middleware/rate-limit';
import { validateBody } from '../../middleware/validate';
import {
  addressOfManageToken,
  readPreferences,
  unsubscribeEverywhere,
  updatePreferences,
} from './preferences.service';

export interface PreferenceRoutesDeps {
  redis: Redis;
  changes: SubscriberChanges;
  /** Checks the manage links' signatures. */
  mailLinkSecret: string;
  rateLimit: { name: string; windowMs: number; perIpMax: number };
}

/**
 * The preference page's calls: no account, the manage link's token is the
 * only credential, checked on every call (a page left open past the key's
 * period stops working too). Answers are never cached.
 */
export function preferenceRoutes({
  redis,
  changes,
  mailLinkSecret,
  rateLimit: limits,
}: PreferenceRoutesDeps): Router {
  const router = new Router();
  const perIp = rateLimit({
    redis,
    name: limits.name,
    max: limits.perIpMax,
    windowMs: limits.windowMs,
  });

  router.post(API_ROUTES.preferences, perIp, async (ctx) => {
    const { token } = await validateBody(ctx, newsletterTokenSchema);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await readPreferences(addressOfManageToken(token, mailLinkSecret));
  });

  router.put(API_ROUTES.preferences, perIp, async (ctx) => {
    const { token, ...input } = await validateBody(ctx, preferenceUpdateSchema);
    const email = addressOfManageToken(token, mailLinkSecret);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await updatePreferences(email, input);
  });

  router.post(API_ROUTES.preferencesUnsubscribe, perIp, async (ctx) => {
    const { token } = await validateBody(ctx, newsletterTokenSchema);
    const email = addressOfManageToken(token, mailLinkSecret);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await unsubscribeEverywhere(email, changes);
  });

  return router;
}
