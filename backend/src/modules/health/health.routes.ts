import Router from '@koa/router';
import { API_ROUTES } from '@agency/contracts';
import type { HealthWithQueuesDto } from '@agency/contracts';
import { isDatabaseUp, isRedisUp, type Redis } from '@agency/platform';
import type { QueueRegistry } from '../../queues/queue-registry';

/** Queue depths are a nicety of the answer: never worth a slow health check. */
const QUEUE_DEPTHS_TIMEOUT_MS = 500;

/**
 * 200 when MongoDB and Redis both answer, 503 (with which one is down)
 * otherwise; with the depth of every queue when Redis is up.
 */
export function healthRoutes({
  redis,
  queueRegistry,
}: {
  redis: Redis;
  queueRegistry?: QueueRegistry;
}): Router {
  const router = new Router();
  router.get(API_ROUTES.health, async (ctx) => {
    const [mongodb, redisUp] = await Promise.all([isDatabaseUp(), isRedisUp(redis)]);
    const queues =
      redisUp && queueRegistry ? await queueRegistry.depths(QUEUE_DEPTHS_TIMEOUT_MS) : undefined;
    const body: HealthWithQueuesDto = {
      status: mongodb && redisUp ? 'ok' : 'degraded',
      services: { mongodb: mongodb ? 'up' : 'down', redis: redisUp ? 'up' : 'down' },
      ...(queues ? { queues } : {}),
    };
    ctx.status = body.status === 'ok' ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });
  return router;
}
