import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-context';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

/** A Redis of this test's own, so stopping it harms no other test file. */
async function startRedis(port: number): Promise<ChildProcess> {
  const redis = spawn(
    'redis-server',
    ['--port', String(port), '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  return redis;
}

describe('GET /api/health', () => {
  let ctx: TestContext;
  let redis: ChildProcess;

  beforeAll(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    ctx = await createTestContext({ redisUrl: `redis://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    redis.kill('SIGKILL');
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
    });

    const stopped = new Promise((resolve) => redis.once('exit', resolve));
    redis.kill('SIGTERM');
    await stopped;

    const degraded = await request(ctx.app.callback()).get('/api/health');
    expect(degraded.status).toBe(503);
    expect(degraded.body).toEqual({
      status: 'degraded',
      services: { mongodb: 'up', redis: 'down' },
    });
  });
});
