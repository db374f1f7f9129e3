import Router from '@koa/router';
import { API_ROUTES } from '@agency/contracts';
import type { HealthWithQueuesDto, SmtpHealth } from '@agency/contracts';
import { isDatabaseUp, isRedisUp, readMailServerState, type Redis } from '@agency/platform';
import type { QueueRegistry } from '../../queues/queue-registry';

/** Queue depths are a nicety of the answer: never worth a slow health check. */
const QUEUE_DEPTHS_TIMEOUT_MS = 500;

/** What the worker noted of the SMTP server; the API itself never connects to it. */
async function smtpHealth(redis: Redis, queuePrefix: string): Promise<SmtpHealth> {
  try {
    const state = await readMailServerState(redis, queuePrefix);
    return state.status === 'unreachable'
      ? { status: 'unreachable', since: state.since.toISOString() }
      : { status: 'reachable', since: null };
  } catch {
    return { status: 'unknown', since: null };
  }
}

/**
 * 200 when MongoDB and Redis both answer, 503 (with which one is down)
 * otherwise; with the depth of every queue when Redis is up, and the SMTP
 * server's state. An SMTP outage alone keeps the 200: the API serves every
 * request, the worker holds the mail until the server is back, and a load
 * balancer must not take healthy API replicas out for it.
 */
export function healthRoutes({
  redis,
  queuePrefix,
  queueRegistry,
}: {
  redis: Redis;
  queuePrefix: string;
  queueRegistry?: QueueRegistry;
}): Router {
  const router = new Router();
  router.get(API_ROUTES.health, async (ctx) => {
    const [mongodb, redisUp] = await Promise.all([isDatabaseUp(), isRedisUp(redis)]);
    const [queues, smtp] = redisUp
      ? await Promise.all([
          queueRegistry?.depths(QUEUE_DEPTHS_TIMEOUT_MS),
          smtpHealth(redis, queuePrefix),
        ])
      : [undefined, { status: 'unknown', since: null } as const];
    const body: HealthWithQueuesDto = {
      status: mongodb && redisUp ? 'ok' : 'degraded',
      services: { mongodb: mongodb ? 'up' : 'down', redis: redisUp ? 'up' : 'down' },
      ...(queues ? { queues } : {}),
      smtp,
    };
    ctx.status = body.status === 'ok' ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });
  return router;
}
