import Koa from 'koa';
import { koaBody } from 'koa-body';
import cors from '@koa/cors';
import helmet from 'koa-helmet';
import { NEWSLETTER_API_PATHS } from '@agency/contracts';
import type { ApiConfig } from './config';
import type { Logger } from './logger';
import type { MailQueues } from './queues/mail-queues';
import type { Redis } from './queues/redis-connection';
import { requestContext } from './middleware/request-context';
import { errorHandler } from './middleware/error-handler';
import { requireJson } from './middleware/require-json';
import { contactRoutes } from './modules/contact';
import { healthRoutes } from './modules/health';
import { newsletterRoutes } from './modules/newsletter';

export interface AppDeps {
  config: Pick<
    ApiConfig,
    'corsOrigin' | 'trustProxy' | 'jsonBodyLimit' | 'rateLimit' | 'queuePrefix' | 'mailLinkSecret'
  >;
  logger: Logger;
  queues: MailQueues;
  /** The producer connection: rate-limit counters and the health check use it. */
  redis: Redis;
}

/** Builds the API without listening, so tests can drive `app.callback()`. */
export function createApp({ config, logger, queues, redis }: AppDeps): Koa {
  const app = new Koa({ proxy: config.trustProxy });
  // Errors are answered by errorHandler and logged with the request id there.
  app.silent = true;

  app.use(requestContext(logger));
  app.use(errorHandler());
  app.use(helmet());
  app.use(cors({ origin: config.corsOrigin, credentials: true, maxAge: 600 }));
  app.use(requireJson({ formPaths: [NEWSLETTER_API_PATHS.unsubscribe] }));
  app.use(
    koaBody({
      json: true,
      urlencoded: false,
      text: false,
      multipart: false,
      jsonStrict: true,
      jsonLimit: config.jsonBodyLimit,
      onError: (error) => {
        throw error;
      },
    }),
  );

  const routers = [
    healthRoutes({ redis }),
    contactRoutes({
      queues,
      redis,
      rateLimit: {
        name: `${config.queuePrefix}:ratelimit:contact`,
        max: config.rateLimit.contactMax,
        windowMs: config.rateLimit.windowMs,
      },
    }),
    newsletterRoutes({
      queues,
      redis,
      mailLinkSecret: config.mailLinkSecret,
      rateLimit: {
        name: `${config.queuePrefix}:ratelimit:newsletter`,
        windowMs: config.rateLimit.windowMs,
        perIpMax: config.rateLimit.newsletterMax,
        perAddressMax: config.rateLimit.newsletterAddressMax,
        linksPerIpMax: config.rateLimit.newsletterLinksMax,
      },
    }),
  ];
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods({ throw: false }));
  }
  return app;
}
