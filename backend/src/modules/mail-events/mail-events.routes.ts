import Router from '@koa/router';
import getRawBody from 'raw-body';
import {
  API_ROUTES,
  MAIL_EVENT_PROVIDERS,
  type MailEventProvider,
  type MailEventsResponse,
} from '@agency/contracts';
import {
  recordMailEvents,
  type MailIdentityKey,
  type Redis,
  type SubscriberChanges,
} from '@agency/platform';
import type { Context } from 'koa';
import type { MailEventsConfig } from '../../config';
import { HttpError } from '../../errors';
import { rateLimit } from '../../middleware/rate-limit';
import { requestLocale } from '../../middleware/validate';
import { claimOnce, refuseUnfresh, type ReleaseToken } from './delivery-guards';
import { genericSource } from './generic.source';
import { mailgunSource } from './mailgun.source';
import {
  MalformedEvents,
  type MailEventSource,
  type ParsedEvents,
  type WebhookRequest,
} from './mail-event-source';
import { postmarkSource } from './postmark.source';
import { sendgridPublicKey, sendgridSource } from './sendgrid.source';
import { sesSource } from './ses.source';

export interface MailEventRoutesDeps {
  config: MailEventsConfig;
  redis: Redis;
  /** Namespaces the signature tokens already taken, beside the API's other Redis keys. */
  prefix: string;
  rateLimit: { name: string; windowMs: number };
  /** Told when a complaint unsubscribes an address: the dashboard's figures follow it. */
  subscriberChanges: SubscriberChanges;
  /** An event is applied only when it names a mail we sent to its recipient, by this key's digest. */
  identityKey: MailIdentityKey;
}

/** The providers whose secrets are set; the others answer 404. */
function sourcesOf(config: MailEventsConfig): Partial<Record<MailEventProvider, MailEventSource>> {
  return {
    ...(config.ses ? { ses: sesSource(config.ses) } : {}),
    ...(config.postmark ? { postmark: postmarkSource(config.postmark) } : {}),
    ...(config.sendgridPublicKey
      ? { sendgrid: sendgridSource(sendgridPublicKey(config.sendgridPublicKey)) }
      : {}),
    ...(config.mailgunSigningKey ? { mailgun: mailgunSource(config.mailgunSigningKey) } : {}),
    ...(config.genericSecret ? { generic: genericSource(config.genericSecret) } : {}),
  };
}

function isProvider(value: unknown): value is MailEventProvider {
  return (MAIL_EVENT_PROVIDERS as readonly unknown[]).includes(value);
}

function isTooLarge(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'status' in error && error.status === 413;
}

/** The body's bytes, never more than `limit`: nothing larger is read, let alone verified. */
async function cappedBody(ctx: Context, limit: string): Promise<Buffer> {
  try {
    return await getRawBody(ctx.req, { limit, length: ctx.request.length });
  } catch (error) {
    if (isTooLarge(error)) {
      throw new HttpError(
        'PAYLOAD_TOO_LARGE',
        `The body is larger than ${limit}, the most this webhook takes (MAIL_EVENTS_BODY_LIMIT)`,
      );
    }
    throw error;
  }
}

/** Until when (unix seconds) this delivery's signature stays acceptable. */
interface SignedWindow {
  now: number;
  until: number;
}

/** Refuses a delivery signed outside the tolerance; a scheme that signs no time passes. */
function signedWindow(
  source: MailEventSource,
  request: WebhookRequest,
  toleranceSeconds: number,
): SignedWindow {
  const now = Math.floor(Date.now() / 1000);
  const retrySeconds = source.retrySeconds ?? 0;
  if (!source.signedAt) return { now, until: now + toleranceSeconds };
  const signedAt = source.signedAt(request);
  refuseUnfresh(signedAt, { now, toleranceSeconds, retrySeconds });
  return { now, until: (signedAt ?? now) + toleranceSeconds + retrySeconds };
}

/** Takes the delivery's one-use token, kept until its timestamp alone refuses it. */
async function takeToken(
  source: MailEventSource,
  request: WebhookRequest,
  { now, until }: SignedWindow,
  claim: (token: string, ttlSeconds: number) => Promise<ReleaseToken>,
): Promise<ReleaseToken | undefined> {
  const token = source.onceToken?.(request);
  return token === undefined ? undefined : claim(token, until - now + 1);
}

async function parsedEvents(
  source: MailEventSource,
  request: WebhookRequest,
): Promise<ParsedEvents> {
  try {
    return await source.parse(request);
  } catch (error) {
    if (!(error instanceof MalformedEvents)) throw error;
    if (error.fields) throw new HttpError('VALIDATION_FAILED', error.message, error.fields);
    throw new HttpError('BAD_REQUEST', error.message);
  }
}

/**
 * `POST /api/webhooks/mail-events/{provider}`: bounces and complaints. The
 * body is read raw (signatures are over its bytes), at most
 * MAIL_EVENTS_BODY_LIMIT (413), then verified: a wrong signature, or a
 * signed timestamp outside MAIL_EVENTS_TOLERANCE_SECONDS, is a 401 and
 * nothing is stored; a Mailgun token used before is a 409. Events of other
 * types are acknowledged and ignored, so the provider does not retry them; a
 * replayed event changes nothing.
 */
export function mailEventRoutes({
  config,
  redis,
  prefix,
  rateLimit: limit,
  subscriberChanges,
  identityKey,
}: MailEventRoutesDeps): Router {
  const router = new Router();
  const sources = sourcesOf(config);

  router.post(
    API_ROUTES.mailEvents,
    rateLimit({ redis, max: config.rateLimitMax, ...limit }),
    async (ctx) => {
      const provider: unknown = ctx.params.provider;
      const source = isProvider(provider) ? sources[provider] : undefined;
      if (!isProvider(provider) || !source) {
        throw new HttpError('NOT_FOUND', 'No mail-event webhook is set up for this provider');
      }
      const rawBody = await cappedBody(ctx, config.bodyLimit);
      const request: WebhookRequest = { headers: ctx.headers, rawBody, locale: requestLocale(ctx) };
      if (!(await source.verify(request))) {
        throw new HttpError('UNAUTHENTICATED', 'The signature or credentials do not match');
      }
      const window = signedWindow(source, request, config.toleranceSeconds);
      const parsed = await parsedEvents(source, request);
      const release = await takeToken(source, request, window, (token, ttlSeconds) =>
        claimOnce({ redis, prefix }, provider, token, ttlSeconds),
      );
      let outcome;
      try {
        outcome = await recordMailEvents(parsed.events, {
          changes: subscriberChanges,
          identityKey,
          logger: ctx.state.log,
        });
      } catch (error) {
        // The provider retries what failed here: its next try must not pass for a replay.
        await release?.();
        throw error;
      }
      const body: MailEventsResponse = { ...outcome, ignored: parsed.ignored };
      ctx.state.log.info({ provider, ...body }, 'mail events received');
      ctx.body = body;
    },
  );
  return router;
}
