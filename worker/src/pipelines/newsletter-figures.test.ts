import request from 'supertest';
import {
  COUNT_FIELDS,
  createKeptCounts,
  createLogger,
  createRedisConnection,
  reconcileStats,
  type Redis,
} from '@agency/platform';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';

describe('a subscription request the worker records', () => {
  let ctx: PipelineContext;
  let smtp: SmtpSink;
  let redis: Redis;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    ctx = await createPipelineContext();
    redis = createRedisConnection(ctx.config.redisUrl, 'consumer');
    await ctx.startWorker({ smtpUrl: smtp.url });
  });
  afterAll(async () => {
    redis.disconnect();
    await ctx.close();
    await smtp.close();
  });

  /** Resolves once the worker queued `count` confirmation mails: it tells the figures first. */
  async function recorded(count: number): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const jobs = await ctx.queues.newsletterConfirmation.getJobCountByTypes(
        'waiting',
        'active',
        'completed',
        'failed',
        'delayed',
      );
      if (jobs >= count) return;
      if (Date.now() > deadline) throw new Error(`${jobs} of ${count} requests recorded`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  it("moves the dashboard's kept figures as the API's own writes do", async () => {
    const api = request(ctx.app.callback());
    for (const email of ['nour@example.tn', 'Sami@Example.tn']) {
      await api.post('/api/newsletter').send({ email, locale: 'fr' }).expect(202);
    }
    await recorded(2);

    const figures = {
      prefix: ctx.config.queuePrefix,
      timeZone: ctx.config.timeZone,
      logger: createLogger('test', 'silent'),
    };
    const count = await createKeptCounts(redis, figures).counts();
    expect(count(COUNT_FIELDS.subscribers('pending'))).toBe(2);
    // Nothing for the reconciliation to repair: the figures followed the worker's writes.
    const report = await reconcileStats({ redis, settleMs: 0, ...figures });
    expect(report.counted.subscribers).toBe(2);
    expect(report.repaired.counts).toEqual([]);
    expect(report.repaired.addresses).toBe(0);
  });
});
