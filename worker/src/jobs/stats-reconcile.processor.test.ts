import { Writable } from 'node:stream';
import request from 'supertest';
import { pino } from 'pino';
import { Queue, QueueEvents, Worker, type Processor } from 'bullmq';
import {
  STATS_QUEUE_NAMES,
  STATS_RECONCILE_NOW_JOB_ID,
  type StatsReconcileJob,
} from '@agency/contracts';
import { createRedisConnection, type ReconcileReport, type Redis } from '@agency/backend';
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
    events = new QueueEvents(STATS_QUEUE_NAMES.reconcile, {
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

  it('recounts at once when Redis lost the figures, and logs what it repaired', async () => {
    await enquiry('nour@example.tn');
    await enquiry('sami@example.tn');
    // Redis comes back empty: the API's increments are gone, the store still has both.
    const kept = await connection.keys(`${ctx.config.queuePrefix}:stats:*`);
    expect(kept.length).toBeGreaterThan(0);
    await connection.del(...kept);

    const { logger, lines } = recordingLogger();
    // The scheduler's first pass and the pass added because the figures were
    // gone both run at once; whichever comes first repairs.
    const passes = new Promise<ReconcileReport[]>((resolve) => {
      const reports: ReconcileReport[] = [];
      const completed = ({ returnvalue }: { returnvalue: unknown }) => {
        reports.push(returnvalue as ReconcileReport);
        if (reports.length < 2) return;
        events.off('completed', completed);
        resolve(reports);
      };
      events.on('completed', completed);
    });
    reconciliation = startStatsReconciliation({
      connection,
      queuePrefix: ctx.config.queuePrefix,
      logger,
      stats: { reconcileIntervalMs: 3_600_000, timeZone: ctx.config.timeZone, settleMs: 0 },
      startWorker: (name: string, processor: Processor<StatsReconcileJob>, concurrency: number) =>
        new Worker<StatsReconcileJob>(name, processor, {
          connection,
          prefix: ctx.config.queuePrefix,
          concurrency,
        }),
    });
    await reconciliation.schedule();

    const reports = await passes;
    expect(reports.map((report) => report.counted.contacts)).toEqual([2, 2]);
    const repair = reports.find((report) => report.repaired.counts.length > 0);
    expect(repair?.repaired.counts).toEqual(
      expect.arrayContaining([{ field: 'contacts', kept: 0, counted: 2 }]),
    );
    const warning = lines.find(
      ({ msg }) => msg === 'kept figures had drifted from the store; repaired',
    );
    expect(warning?.repaired?.counts).toEqual(repair?.repaired.counts);
  });

  it('adds no extra pass while the figures are there', async () => {
    const queue = new Queue<StatsReconcileJob>(STATS_QUEUE_NAMES.reconcile, {
      connection,
      prefix: ctx.config.queuePrefix,
    });
    try {
      await reconciliation?.schedule();
      expect(await queue.getJob(STATS_RECONCILE_NOW_JOB_ID)).toBeUndefined();
      expect(await queue.getJobSchedulersCount()).toBe(1);
    } finally {
      await queue.close();
    }
  });
});
