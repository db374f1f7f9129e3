import { createHash } from 'node:crypto';
import Router from '@koa/router';
import {
  API_ROUTES,
  privacyLinkCheckSchema,
  privacyLinkRequestSchema,
  privacyLinkUseSchema,
  type PrivacyErasureStartedResponse,
  type PrivacyLinkCheckResponse,
  type PrivacyLinkRequestResponse,
} from '@agency/contracts';
import type { Middleware } from 'koa';
import { recordActivity } from '../activity-log';
import type { PrivacyService } from '../privacy';
import { HttpError } from '../../errors';
import { rateLimit, rateLimitBy } from '../../middleware/rate-limit';
import { validateBody } from '../../middleware/validate';
import { enqueuePrivacyLink, type PrivacyLinkQueue } from '../../queues/privacy-link-queue';
import { addressOfManageToken, mailLocaleOf } from './preferences.service';
import { openPrivacyLink, spendPrivacyLink, type PrivacyLinkKeys } from './privacy-links.service';

export interface PrivacyLinkRoutesDeps extends PrivacyLinkKeys {
  queue: PrivacyLinkQueue;
  privacy: PrivacyService;
  rateLimit: {
    windowMs: number;
    /** Links asked for, per IP and per address: each sends a mail. */
    requestsPerIpMax: number;
    requestsPerAddressMax: number;
    /** Mailed links' pages checked and used, per IP. */
    linkUsesPerIpMax: number;
  };
}

/** Redis keys name the address by a digest: the limiter has no need to store e-mails. */
function addressKey(email: string): string {
  return createHash('sha256').update(email).digest('hex').slice(0, 32);
}

const noStore: Middleware = async (ctx, next) => {
  ctx.set('Cache-Control', 'no-store');
  await next();
};

function limitOptions(deps: PrivacyLinkRoutesDeps, name: string, max: number) {
  return {
    redis: deps.redis,
    name: `${deps.prefix}:ratelimit:privacy-link-${name}`,
    max,
    windowMs: deps.rateLimit.windowMs,
  };
}

/** The preference page's request: checks the manage link, then queues the mail with the link. */
function addLinkRequestRoute(router: Router, deps: PrivacyLinkRoutesDeps): void {
  const { requestsPerIpMax, requestsPerAddressMax } = deps.rateLimit;
  const perIp = rateLimit(limitOptions(deps, 'requests-ip', requestsPerIpMax));
  const perAddress = rateLimitBy(limitOptions(deps, 'requests-address', requestsPerAddressMax));
  router.post(API_ROUTES.preferencesPrivacyLink, perIp, noStore, async (ctx) => {
    const { token, purpose } = await validateBody(ctx, privacyLinkRequestSchema);
    const email = addressOfManageToken(token, deps.mailLinkSecret);
    await perAddress(addressKey(email))(ctx, async () => {
      try {
        await enqueuePrivacyLink(deps.queue, { email, purpose, locale: await mailLocaleOf(email) });
      } catch {
        // Nothing is stored: the person asks again, and the page says so.
        throw new HttpError('UNAVAILABLE', 'The link could not be sent; try again shortly');
      }
      const body: PrivacyLinkRequestResponse = { status: 'sent', email };
      ctx.status = 202;
      ctx.body = body;
    });
  });
}

/** The download link: the dashboard's export of the address, as a file, once. */
function addDownloadRoute(router: Router, deps: PrivacyLinkRoutesDeps, perIp: Middleware): void {
  router.post(API_ROUTES.privacyLinkDownload, perIp, noStore, async (ctx) => {
    const { token } = await validateBody(ctx, privacyLinkUseSchema);
    const link = await openPrivacyLink(deps, token, 'download');
    const data = await spendPrivacyLink(deps, link, () =>
      deps.privacy.exportPersonData(link.email),
    );
    ctx.attachment(`my-data-${data.generatedAt.slice(0, 10)}.json`);
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = JSON.stringify(data, null, 2);
  });
}

/** The erasure link's final confirmation: the dashboard's erasure of the address, once. */
function addErasureRoute(router: Router, deps: PrivacyLinkRoutesDeps, perIp: Middleware): void {
  router.post(API_ROUTES.privacyLinkErasure, perIp, noStore, async (ctx) => {
    const { token } = await validateBody(ctx, privacyLinkUseSchema);
    const link = await openPrivacyLink(deps, token, 'erasure');
    const erasure = await spendPrivacyLink(deps, link, () =>
      deps.privacy.requestErasure(link.email),
    );
    // As the dashboard's erasure: the log names the person by the address's digest alone.
    await recordActivity({
      actor: null,
      action: 'person.erase-self',
      target: { type: 'person', id: erasure.id },
      ip: ctx.ip,
    });
    const body: PrivacyErasureStartedResponse = { status: 'started' };
    ctx.status = 202;
    ctx.body = body;
  });
}

/**
 * A person's own data download and erasure. A manage link travels in mail
 * that can be forwarded, so it only asks: the link that acts is mailed to
 * the address, short-lived and good once. Answers are never cached.
 */
export function privacyLinkRoutes(deps: PrivacyLinkRoutesDeps): Router {
  const router = new Router();
  addLinkRequestRoute(router, deps);
  const usesPerIp = rateLimit(limitOptions(deps, 'uses-ip', deps.rateLimit.linkUsesPerIpMax));
  // The mailed link's page asks what it is for first: this spends nothing.
  router.post(API_ROUTES.privacyLinkCheck, usesPerIp, noStore, async (ctx) => {
    const { token, purpose } = await validateBody(ctx, privacyLinkCheckSchema);
    const { email } = await openPrivacyLink(deps, token, purpose);
    const body: PrivacyLinkCheckResponse = { purpose, email };
    ctx.body = body;
  });
  addDownloadRoute(router, deps, usesPerIp);
  addErasureRoute(router, deps, usesPerIp);
  return router;
}
