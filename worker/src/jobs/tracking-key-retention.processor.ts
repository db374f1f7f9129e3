import {
  QUEUE_NAMES,
  TRACKING_KEY_RETENTION_EVERY_MS,
  TRACKING_KEY_RETENTION_SCHEDULER_ID,
} from '@agency/contracts';
import {
  destroyExpiredTrackingKeys,
  readAgencySettings,
  type Logger,
  type Redis,
  type TrackingRetentionReport,
} from '@agency/platform';
import { startScheduledJob, type ScheduledJob, type StartWorker } from '../job-schedulers';

/**
 * One retention pass: the agency's `tracking.keyRetentionDays` read now (an
 * admin may have changed it), then the keys of the anonymous campaigns past
 * it destroyed with their recipients' activity.
 */
export function trackingKeyRetentionProcessor(logger: Logger, now: () => Date = () => new Date()) {
  return async (): Promise<TrackingRetentionReport> => {
    const { tracking } = await readAgencySettings();
    const report = await destroyExpiredTrackingKeys(now(), tracking.keyRetentionDays);
    if (report.campaigns > 0 || report.activities > 0) {
      logger.info(
        { ...report, retentionDays: tracking.keyRetentionDays },
        'tracking keys past their retention destroyed',
      );
    }
    return report;
  };
}

/** The retention's job scheduler: hourly, on whichever worker is free. */
export function startTrackingKeyRetention({
  connection,
  queuePrefix,
  logger,
  startWorker,
  everyMs = TRACKING_KEY_RETENTION_EVERY_MS,
}: {
  connection: Redis;
  queuePrefix: string;
  logger: Logger;
  startWorker: StartWorker<Record<string, never>>;
  everyMs?: number;
}): Promise<ScheduledJob> {
  return startScheduledJob({
    name: QUEUE_NAMES.trackingKeyRetention,
    schedulerId: TRACKING_KEY_RETENTION_SCHEDULER_ID,
    everyMs,
    processor: trackingKeyRetentionProcessor(logger),
    connection,
    queuePrefix,
    logger,
    startWorker,
  });
}
