import { Queue, type Job, type Processor, type Worker } from 'bullmq';
import {
  QUEUE_NAMES,
  STATS_RECONCILE_SCHEDULER_ID,
  type QueueName,
  type StatsReconcileJob,
} from '@agency/contracts';
import { reconcileStats, type Logger, type ReconcileReport, type Redis } from '@agency/platform';
import { keepJobScheduler } from '../job-schedulers';

export interface StatsReconcileDeps {
  redis: Redis;
  queuePrefix: string;
  /** The agency's time zone, which names the days counted (the API's own). */
  timeZone: string;
  /** How long to let increments in flight land after the recount reads the store. */
  settleMs: number;
  logger: Logger;
}

/** How many kept figures (and index entries) the pass found wrong. */
export function driftOf(report: ReconcileReport): number {
  return (
    report.repaired.counts.length +
    report.repaired.days +
    report.repaired.addresses +
    (report.index ? report.index.added + report.index.removed : 0)
  );
}

/**
 * One reconciliation of the dashboard's kept figures with the store, run by
 * the job scheduler once per interval: what drifted is repaired and logged
 * as a warning, with each figure's kept and counted value.
 */
export function statsReconcileProcessor({
  redis,
  queuePrefix,
  timeZone,
  settleMs,
  logger,
}: StatsReconcileDeps) {
  return async (_job: Job<StatsReconcileJob>): Promise<ReconcileReport> => {
    const report = await reconcileStats({
      redis,
      prefix: queuePrefix,
      timeZone,
      settleMs,
      logger,
    });
    if (driftOf(report) > 0) {
      logger.warn(report, 'kept figures had drifted from the store; repaired');
    } else {
      logger.info(report, 'kept figures match the store');
    }
    return report;
  };
}

export interface StatsReconciliation {
  close(): Promise<void>;
}

/** However long the interval, a scheduler Redis lost is set again within this. */
const SCHEDULER_CHECK_MS = 60_000;

/**
 * The reconciliation's queue and worker. A job scheduler (upserted by every
 * worker process, stored once in Redis, set again when Redis lost it) runs
 * one pass per interval on whichever worker is free; periodic work never
 * runs on a timer of the API. A scheduler is created with its first pass
 * due at once, so a new installation, or a Redis that came back without
 * its data (and so without the figures and the scheduler), is recounted
 * straight away. Two passes at once would do no harm: each repair checks
 * the figure still holds what that pass read.
 */
export async function startStatsReconciliation({
  connection,
  queuePrefix,
  logger,
  timeZone,
  reconcileIntervalMs,
  settleMs = 2000,
  startWorker,
}: {
  connection: Redis;
  queuePrefix: string;
  logger: Logger;
  timeZone: string;
  reconcileIntervalMs: number;
  settleMs?: number;
  startWorker: (
    name: QueueName,
    processor: Processor<StatsReconcileJob>,
    concurrency: number,
  ) => Worker;
}): Promise<StatsReconciliation> {
  const queue = new Queue<StatsReconcileJob>(QUEUE_NAMES.statsReconcile, {
    connection,
    prefix: queuePrefix,
  });
  queue.on('error', (error) => logger.warn({ err: error.message }, 'stats queue error'));
  const worker = startWorker(
    QUEUE_NAMES.statsReconcile,
    statsReconcileProcessor({ redis: connection, queuePrefix, timeZone, settleMs, logger }),
    1,
  );
  const schedule = await keepJobScheduler({
    queue,
    connection,
    schedulerId: STATS_RECONCILE_SCHEDULER_ID,
    upsert: () =>
      queue.upsertJobScheduler(
        STATS_RECONCILE_SCHEDULER_ID,
        { every: reconcileIntervalMs },
        {
          name: QUEUE_NAMES.statsReconcile,
          data: {},
          opts: { removeOnComplete: { count: 20 }, removeOnFail: { count: 20 } },
        },
      ),
    checkEveryMs: Math.min(reconcileIntervalMs, SCHEDULER_CHECK_MS),
    logger,
  });
  return {
    async close() {
      schedule.stop();
      await worker.close();
      await queue.close();
    },
  };
}
