import request from 'supertest';
import {
  createRedisConnection,
  readMailServerState,
  waitUntilConnected,
  type MailServerState,
  type Redis,
} from '@agency/platform';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';

// Retries with backoff and a probe every 10 s (the default) on real services.
jest.setTimeout(90_000);

describe("an enquiry's mail while the SMTP server is down", () => {
  let ctx: PipelineContext;
  let smtp: SmtpSink;
  let redis: Redis;

  beforeEach(async () => {
    smtp = await startSmtpSink();
    ctx = await createPipelineContext({
      jobOptions: { attempts: 20, backoff: { type: 'fixed', delay: 500 } },
    });
    redis = createRedisConnection(ctx.config.redisUrl, 'consumer');
    await waitUntilConnected(redis, 5000);
  });
  afterEach(async () => {
    redis.disconnect();
    await ctx.close();
    await smtp.close();
  });

  async function stateOnce(accepts: (state: MailServerState) => boolean): Promise<MailServerState> {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const state = await readMailServerState(redis, ctx.config.queuePrefix);
      if (accepts(state)) return state;
      if (Date.now() > deadline) throw new Error(`state stayed ${JSON.stringify(state)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('notes the outage with no campaign sending, and the probe ends it once the server is back', async () => {
    await smtp.stop();
    await ctx.startWorker({ smtpUrl: smtp.url });
    const response = await request(ctx.app.callback()).post('/api/contact').send({
      firstName: 'Youssef',
      lastName: 'Trabelsi',
      email: 'youssef@example.tn',
      service: 'meta-ads',
      message: 'We sell olive oil online and want more buyers in France.',
    });
    expect(response.status).toBe(201);

    await expect(stateOnce((state) => state.status === 'unreachable')).resolves.toMatchObject({
      lastError: 'ECONNREFUSED',
    });

    await smtp.restart();
    await stateOnce((state) => state.status === 'reachable');
    await smtp.waitForCount(2, () => true, 45_000);
  });
});
