import { Writable } from 'node:stream';
import request from 'supertest';
import { pino } from 'pino';
import { Queue, QueueEvents, Worker, type Processor } from 'bullmq';
import { QUEUE_NAMES, type QueueName, type StatsReconcileJob } from '@agency/contracts';
import { createRedisConnection, type ReconcileReport, type Redis } from '@agency/platform';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startStatsReconciliation, type StatsReconciliation } from './stats-reconcile.processor';

/** A logger whose lines the test can read. */
function recordingLogger() {
  const lines: { msg?: unknown; repaired?: ReconcileReport['repaired'] }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

describe('the stats reconciliation job', () => {
  let ctx: PipelineContext;
  let connection: Redis;
  let eventsConnection: Redis;
  let reconciliation: StatsReconciliation | undefined;
  let events: QueueEvents;
  beforeAll(async () => {
    ctx = await createPipelineContext();
    connection = createRedisConnection(ctx.config.redisUrl, 'consumer');
    eventsConnection = connection.duplicate();
    events = new QueueEvents(QUEUE_NAMES.statsReconcile, {
      connection: eventsConnection,
      prefix: ctx.config.queuePrefix,
    });
    await events.waitUntilReady();
  });
  afterAll(async () => {
    await reconciliation?.close();
    await events.close();
    eventsConnection.disconnect();
    connection.disconnect();
    await ctx.close();
  });

  const start = (logger = pino({ level: 'silent' }), settleMs = 0) =>
    startStatsReconciliation({
      connection,
      queuePrefix: ctx.config.queuePrefix,
      logger,
      timeZone: ctx.config.timeZone,
      reconcileIntervalMs: 3_600_000,
      settleMs,
      startWorker: (
        name: QueueName,
        processor: Processor<StatsReconcileJob>,
        concurrency: number,
      ) =>
        new Worker<StatsReconcileJob>(name, processor, {
          connection,
          prefix: ctx.config.queuePrefix,
          concurrency,
        }),
    });

  const enquiry = (email: string) =>
    request(ctx.app.callback())
      .post('/api/contact')
      .send({
        firstName: 'Nour',
        lastName: 'Hamdi',
        email,
        service: 'meta-ads',
        message: 'Ads for our summer collection.',
      })
      .expect(201);

  it('recounts at once when its scheduler is new, and logs what it repaired', async () => {
    await enquiry('nour@example.tn');
    await enquiry('sami@example.tn');
    // Redis comes back empty: the API's increments are gone, the store still has both.
    const kept = await connection.keys(`${ctx.config.queuePrefix}:stats:*`);
    expect(kept.length).toBeGreaterThan(0);
    await connection.del(...kept);

    const { logger, lines } = recordingLogger();
    const pass = new Promise<ReconcileReport>((resolve) => {
      events.once('completed', ({ returnvalue }) =>
        resolve(returnvalue as unknown as ReconcileReport),
      );
    });
    reconciliation = await start(logger);

    // A new scheduler (as after Redis lost everything) runs its first pass at once.
    const report = await pass;
    expect(report.counted.contacts).toBe(2);
    expect(report.repaired.counts).toEqual(
      expect.arrayContaining([{ field: 'contacts', kept: 0, counted: 2 }]),
    );
    const warning = lines.find(
      ({ msg }) => msg === 'kept figures had drifted from the store; repaired',
    );
    expect(warning?.repaired?.counts).toEqual(report.repaired.counts);
  });

  it('adds no pass when another worker sets the scheduler again', async () => {
    const queue = new Queue<StatsReconcileJob>(QUEUE_NAMES.statsReconcile, {
      connection,
      prefix: ctx.config.queuePrefix,
    });
    const second = await start();
    try {
      expect(await queue.getJobCounts('waiting', 'active')).toEqual({ waiting: 0, active: 0 });
      expect(await queue.getJobSchedulersCount()).toBe(1);
    } finally {
      await second.close();
      await queue.close();
    }
  });

  it('does not hold a stopping worker while a pass waits or recounts', async () => {
    // A fresh queue, so the new scheduler starts a pass at once.
    await reconciliation?.close();
    reconciliation = undefined;
    const queue = new Queue<StatsReconcileJob>(QUEUE_NAMES.statsReconcile, {
      connection,
      prefix: ctx.config.queuePrefix,
    });
    await queue.obliterate({ force: true });
    await queue.close();
    const active = new Promise<void>((resolve) => events.once('active', () => resolve()));
    // A pass that lets increments settle for a minute: far past the shutdown grace.
    const slow = await start(pino({ level: 'silent' }), 60_000);
    await active;
    const stopping = Date.now();
    await slow.close();
    expect(Date.now() - stopping).toBeLessThan(5_000);
  }, 30_000);
});
