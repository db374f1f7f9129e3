import type { Job } from 'bullmq';
import {
  QUEUE_NAMES,
  STATS_RECONCILE_SCHEDULER_ID,
  type StatsReconcileJob,
} from '@agency/contracts';
import {
  reconcileStats,
  type Logger,
  type ReconcileReport,
  type Redis,
  type TimeZoneSource,
} from '@agency/platform';
import { startScheduledJob, type ScheduledJob, type StartWorker } from '../job-schedulers';

export interface StatsReconcileDeps {
  redis: Redis;
  queuePrefix: string;
  /** The agency's time zone, which names the days counted (the API's own), read each pass. */
  timeZone: TimeZoneSource;
  /** How long to let increments in flight land after the recount reads the store. */
  settleMs: number;
  logger: Logger;
}

/** How many kept figures (and index entries and audience addresses) the pass found wrong. */
export function driftOf(report: ReconcileReport): number {
  return (
    report.repaired.counts.length +
    report.repaired.days +
    report.repaired.addresses +
    (report.index ? report.index.added + report.index.removed : 0) +
    report.contactAddresses.added +
    report.contactAddresses.removed
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

export type StatsReconciliation = ScheduledJob;

/**
 * The reconciliation's queue, worker and job scheduler (startScheduledJob):
 * one pass per interval on whichever worker is free; periodic work never
 * runs on a timer of the API. Its first pass is due at once, so a Redis
 * that came back without its data (and so without the figures and the
 * scheduler) is recounted straight away. Two passes at once would do no
 * harm: each repair checks the figure still holds what that pass read. For
 * the same reason a stopping worker does not wait for a pass (its settling
 * and recount can outlast the shutdown grace on a busy store): the pass
 * is abandoned, and the next one repairs whatever it left.
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
  timeZone: TimeZoneSource;
  reconcileIntervalMs: number;
  settleMs?: number;
  startWorker: StartWorker<StatsReconcileJob>;
}): Promise<StatsReconciliation> {
  return startScheduledJob({
    name: QUEUE_NAMES.statsReconcile,
    schedulerId: STATS_RECONCILE_SCHEDULER_ID,
    everyMs: reconcileIntervalMs,
    processor: statsReconcileProcessor({
      redis: connection,
      queuePrefix,
      timeZone,
      settleMs,
      logger,
    }),
    connection,
    queuePrefix,
    logger,
    startWorker,
    abandonOnClose: true,
  });
}
