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
import type { MailEventsConfig } from '../../config';
import { HttpError } from '../../errors';
import { rateLimit } from '../../middleware/rate-limit';
import { genericSource } from './generic.source';
import { mailgunSource } from './mailgun.source';
import { MalformedEvents, type MailEventSource } from './mail-event-source';
import { postmarkSource } from './postmark.source';
import { sendgridPublicKey, sendgridSource } from './sendgrid.source';
import { sesSource } from './ses.source';

export interface MailEventRoutesDeps {
  config: MailEventsConfig;
  redis: Redis;
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

/**
 * `POST /api/webhooks/mail-events/{provider}`: bounces and complaints. The
 * body is read raw (signatures are over its bytes), at most
 * MAIL_EVENTS_BODY_LIMIT (413), then verified: a wrong signature is a 401
 * and nothing is stored. Events of other types are acknowledged and ignored,
 * so the provider does not retry them; a replayed event changes nothing.
 */
export function mailEventRoutes({
  config,
  redis,
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
      const provider = ctx.params.provider;
      const source = isProvider(provider) ? sources[provider] : undefined;
      if (!source)
        throw new HttpError('NOT_FOUND', 'No mail-event webhook is set up for this provider');
      const rawBody = await getRawBody(ctx.req, {
        limit: config.bodyLimit,
        length: ctx.request.length,
      });
      const request = { headers: ctx.headers, rawBody };
      if (!(await source.verify(request))) {
        throw new HttpError('UNAUTHENTICATED', 'The signature or credentials do not match');
      }
      let parsed;
      try {
        parsed = await source.parse(request);
      } catch (error) {
        if (error instanceof MalformedEvents) throw new HttpError('BAD_REQUEST', error.message);
        throw error;
      }
      const outcome = await recordMailEvents(parsed.events, {
        changes: subscriberChanges,
        identityKey,
        logger: ctx.state.log,
      });
      const body: MailEventsResponse = { ...outcome, ignored: parsed.ignored };
      ctx.state.log.info({ provider, ...body }, 'mail events received');
      ctx.body = body;
    },
  );
  return router;
}
