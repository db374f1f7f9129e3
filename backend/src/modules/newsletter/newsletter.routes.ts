import { createHash } from 'node:crypto';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import {
  DEFAULT_NEWSLETTER_SOURCE,
  API_ROUTES,
  NEWSLETTER_PAGES,
  NEWSLETTER_SUBSCRIBE_RESPONSE,
  formatValidationMessage,
  isLocale,
  message,
  newsletterSchema,
  newsletterTokenSchema,
  type Locale,
  type NewsletterConfirmResponse,
  type NewsletterUnsubscribeResponse,
} from '@agency/contracts';
import { HttpError } from '../../errors';
import { rateLimit, rateLimitBy } from '../../middleware/rate-limit';
import { requestLocale, validateBody } from '../../middleware/validate';
import {
  countCampaignUnsubscribe,
  enqueueNewsletterRequest,
  findPublicListIds,
  normalizeEmail,
  requestSubscription,
  type MailQueues,
  type Redis,
  type SubscriberChanges,
} from '@agency/platform';
import { confirmSubscription, unsubscribe } from './newsletter.service';

export interface NewsletterRoutesDeps {
  queues: MailQueues;
  /** The kept figures, told of each change of a subscription. */
  changes: SubscriberChanges;
  redis: Redis;
  /** Checks the signatures of confirmation and unsubscribe links. */
  mailLinkSecret: string;
  /** The queue prefix: a campaign's lock, taken to count an unsubscribe from its mail, is under it. */
  queuePrefix: string;
  rateLimit: {
    /** Prefix of the limits' Redis keys. */
    name: string;
    windowMs: number;
    /** Subscription requests per IP, and per address, in one window. */
    perIpMax: number;
    perAddressMax: number;
    /** Link clicks (confirm, unsubscribe) per IP in one window. */
    linksPerIpMax: number;
  };
}

/** Redis keys name the address by a digest: the limiter has no need to store e-mails. */
function addressKey(email: string): string {
  return createHash('sha256').update(normalizeEmail(email)).digest('hex').slice(0, 32);
}

/**
 * The token of a link. The page's button posts it as JSON; a mailbox
 * provider's one-click POST (RFC 8058) sends the form body
 * `List-Unsubscribe=One-Click`, which is not ours to read, and the token in
 * the query of the List-Unsubscribe address. Both are validated alike.
 */
async function linkToken(ctx: Context): Promise<string> {
  if (!ctx.is('application/json')) ctx.request.body = { token: ctx.query.token ?? null };
  const { token } = await validateBody(ctx, newsletterTokenSchema);
  return token;
}

/**
 * The lists chosen on the form, once each is known to be public: any other
 * id is refused with the field, so a sign-up never joins a staff-only list.
 */
async function publicListsChosen(
  listIds: readonly string[] | undefined,
  locale: Locale,
): Promise<string[]> {
  const chosen = [...new Set(listIds ?? [])];
  const offered = await findPublicListIds(chosen);
  if (chosen.every((id) => offered.has(id))) return chosen;
  throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
    listIds: formatValidationMessage(message('publicListUnknown'), locale),
  });
}

function invalidLink(): HttpError {
  return new HttpError('NOT_FOUND', 'This link is not valid');
}

/**
 * The request is handed to the worker, which records it (pending, consent,
 * confirmation mail owed; a confirmed address is left as it is). The API
 * itself does the same work for every address, one job in Redis, so
 * neither the answer nor its time tells anyone who is on the list. While
 * Redis is away the API records the request itself: the visitor's request
 * is kept, and the outbox relay sends the mail once Redis is back.
 */
function addSubscribeRoute(
  router: Router,
  { queues, changes, redis, rateLimit: limits }: NewsletterRoutesDeps,
): void {
  const perIp = rateLimit({
    redis,
    name: `${limits.name}:subscribe-ip`,
    max: limits.perIpMax,
    windowMs: limits.windowMs,
  });
  const perAddress = rateLimitBy({
    redis,
    name: `${limits.name}:subscribe-address`,
    max: limits.perAddressMax,
    windowMs: limits.windowMs,
  });

  router.post(API_ROUTES.newsletter, perIp, async (ctx) => {
    const input = await validateBody(ctx, newsletterSchema);
    const listIds = await publicListsChosen(input.listIds, requestLocale(ctx));
    await perAddress(addressKey(input.email))(ctx, async () => {
      const request = {
        email: input.email,
        locale: isLocale(input.locale) ? input.locale : requestLocale(ctx),
        source: input.source ?? DEFAULT_NEWSLETTER_SOURCE,
        ip: ctx.ip,
        ...(listIds.length > 0 ? { listIds } : {}),
      };
      try {
        await enqueueNewsletterRequest(queues, {
          ...request,
          requestedAt: new Date().toISOString(),
        });
      } catch (error: unknown) {
        ctx.state.log.warn({ err: error }, 'subscription not queued; recorded by the API');
        // Owed in the outbox: the relay enqueues it once Redis answers again.
        await requestSubscription(request, changes);
      }
      ctx.status = 202;
      ctx.body = NEWSLETTER_SUBSCRIBE_RESPONSE;
    });
  });
}

/** The routes a mailed link leads to; `linksPerIp` counts them together. */
interface LinkRouteDeps {
  changes: SubscriberChanges;
  mailLinkSecret: string;
  linksPerIp: Middleware;
}

/**
 * Counts an unsubscribe in its campaign's report. The person is off the
 * list already: a count that cannot be written (Redis away, the campaign's
 * writers busy) is logged, never turned into an error on their page.
 */
function campaignUnsubscribeCounter(ctx: Context, { redis, queuePrefix }: NewsletterRoutesDeps) {
  return async (campaignId: string): Promise<void> => {
    try {
      await countCampaignUnsubscribe(redis, queuePrefix, campaignId);
    } catch (error: unknown) {
      ctx.state.log.warn({ err: error, campaignId }, 'unsubscribe not counted in its campaign');
    }
  };
}

/** The confirmation page posts the link's token; clicking twice confirms once. */
function addConfirmRoute(
  router: Router,
  { changes, mailLinkSecret, linksPerIp }: LinkRouteDeps,
): void {
  router.post(API_ROUTES.newsletterConfirm, linksPerIp, async (ctx) => {
    const { token } = await validateBody(ctx, newsletterTokenSchema);
    const result = await confirmSubscription(token, {
      secret: mailLinkSecret,
      ip: ctx.ip,
      changes,
    });
    if (result.outcome === 'invalid') throw invalidLink();
    if (result.outcome === 'expired') {
      throw new HttpError(
        'LINK_EXPIRED',
        'This confirmation link has expired or is no longer valid; subscribe again to get a new one',
      );
    }
    const body: NewsletterConfirmResponse = { status: 'confirmed', locale: result.locale };
    ctx.body = body;
  });
}

function addUnsubscribeRoutes(
  router: Router,
  { changes, mailLinkSecret, linksPerIp }: LinkRouteDeps,
  deps: NewsletterRoutesDeps,
): void {
  /**
   * The List-Unsubscribe address opened in a browser: it must not unsubscribe
   * by itself (mail scanners follow links), so it shows the page with the
   * button, which posts back here.
   */
  router.get(API_ROUTES.newsletterUnsubscribe, (ctx) => {
    const page = new URLSearchParams();
    const { token, lang } = ctx.query;
    if (typeof token === 'string') page.set('token', token);
    if (isLocale(lang)) page.set('lang', lang);
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(`${NEWSLETTER_PAGES.unsubscribe}?${page.toString()}`);
    ctx.status = 303;
  });

  /**
   * Unsubscribes at once: the mailbox provider's one-click POST (RFC 8058,
   * token in the query, form body `List-Unsubscribe=One-Click`) or the
   * page's button (JSON body). Repeating it changes nothing.
   */
  router.post(API_ROUTES.newsletterUnsubscribe, linksPerIp, async (ctx) => {
    const method = ctx.is('application/json') ? 'page' : 'one-click';
    const token = await linkToken(ctx);
    const result = await unsubscribe(token, {
      secret: mailLinkSecret,
      method,
      changes,
      countForCampaign: campaignUnsubscribeCounter(ctx, deps),
    });
    if (result.outcome === 'invalid') throw invalidLink();
    const body: NewsletterUnsubscribeResponse = { status: 'unsubscribed', locale: result.locale };
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });
}

export function newsletterRoutes(deps: NewsletterRoutesDeps): Router {
  const { changes, redis, mailLinkSecret, rateLimit: limits } = deps;
  const router = new Router();
  addSubscribeRoute(router, deps);
  const linksPerIp = rateLimit({
    redis,
    name: `${limits.name}:links-ip`,
    max: limits.linksPerIpMax,
    windowMs: limits.windowMs,
  });
  addConfirmRoute(router, { changes, mailLinkSecret, linksPerIp });
  addUnsubscribeRoutes(router, { changes, mailLinkSecret, linksPerIp }, deps);
  return router;
}
