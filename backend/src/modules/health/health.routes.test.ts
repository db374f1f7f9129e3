import request from 'supertest';
import { markMailServerReachable, markMailServerUnreachable } from '@agency/platform';
import { startOwnRedis, type OwnRedis } from '@agency/platform/testing/own-redis';
import { createTestContext, type TestContext } from '../../testing/test-context';

describe('GET /api/health', () => {
  let ctx: TestContext;
  // A Redis of this test's own, so stopping it harms no other test file.
  let redis: OwnRedis;

  beforeAll(async () => {
    redis = await startOwnRedis();
    ctx = await createTestContext({ redisUrl: redis.url });
  });
  afterAll(async () => {
    await redis.close();
    await ctx.close();
  });

  it('answers 200 while MongoDB and Redis are up, 503 naming Redis once it stops', async () => {
    const healthy = await request(ctx.app.callback()).get('/api/health');
    expect(healthy.status).toBe(200);
    expect(healthy.body).toEqual({
      status: 'ok',
      services: { mongodb: 'up', redis: 'up' },
      queues: expect.objectContaining({
        'campaign-send': { waiting: 0, active: 0, delayed: 0, failed: 0 },
      }),
      smtp: { status: 'reachable', since: null },
    });

    await redis.stop();

    const degraded = await request(ctx.app.callback()).get('/api/health');
    expect(degraded.status).toBe(503);
    expect(degraded.body).toEqual({
      status: 'degraded',
      services: { mongodb: 'up', redis: 'down' },
      smtp: { status: 'unknown', since: null },
    });
  });
});

describe('the SMTP server in GET /api/health', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await markMailServerReachable(ctx.redis, ctx.config.queuePrefix);
    await ctx.close();
  });

  it('reports the outage the worker noted, and since when, while the API stays healthy (200)', async () => {
    const since = new Date('2026-11-28T08:00:00.000Z');
    await markMailServerUnreachable(ctx.redis, ctx.config.queuePrefix, 'ECONNREFUSED', since);

    const during = await request(ctx.app.callback()).get('/api/health');
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({
      status: 'ok',
      smtp: { status: 'unreachable', since: since.toISOString() },
    });

    await markMailServerReachable(ctx.redis, ctx.config.queuePrefix);
    const after = await request(ctx.app.callback()).get('/api/health');
    expect(after.body.smtp).toEqual({ status: 'reachable', since: null });
  });
});
