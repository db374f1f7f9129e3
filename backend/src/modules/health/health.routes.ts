import Router from '@koa/router';
import type { HealthDto } from '@agency/contracts';
import { isDatabaseUp } from '../../db';
import { isRedisUp, type Redis } from '../../queues/redis-connection';

/** 200 when MongoDB and Redis both answer, 503 (with which one is down) otherwise. */
export function healthRoutes({ redis }: { redis: Redis }): Router {
  const router = new Router();
  router.get('/api/health', async (ctx) => {
    const [mongodb, redisUp] = await Promise.all([isDatabaseUp(), isRedisUp(redis)]);
    const body: HealthDto = {
      status: mongodb && redisUp ? 'ok' : 'degraded',
      services: { mongodb: mongodb ? 'up' : 'down', redis: redisUp ? 'up' : 'down' },
    };
    ctx.status = body.status === 'ok' ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = body;
  });
  return router;
}
