import type { Queue } from 'bullmq';
import type { Logger, Redis } from '@agency/platform';

export interface KeptScheduler {
  stop(): void;
}

/**
 * Keeps one BullMQ job scheduler (the outbox relay's, the campaign
 * recovery's) in Redis: it is set at start, and again whenever Redis turns
 * out to have lost it. Redis loses it when it comes back without its data
 * (a restart without persistence), when a failover promotes a replica that
 * had not received it yet, or when it is emptied under live connections
 * (FLUSHALL): then no connection drops and only a look at the scheduler
 * tells, so each worker looks every `checkEveryMs`. Setting it is
 * idempotent: every worker may do it, and one pass per interval still runs.
 */
export async function keepJobScheduler(options: {
  queue: Queue;
  connection: Redis;
  schedulerId: string;
  /** Sets the scheduler (BullMQ's upsertJobScheduler, with its interval and job). */
  upsert: () => Promise<unknown>;
  checkEveryMs: number;
  logger: Logger;
}): Promise<KeptScheduler> {
  const { queue, connection, schedulerId, upsert, logger } = options;
  await upsert();
  let checking = false;
  const setAgainIfLost = async () => {
    if (checking || connection.status !== 'ready') return;
    checking = true;
    try {
      if (!(await queue.getJobScheduler(schedulerId))) {
        await upsert();
        logger.warn({ schedulerId }, 'job scheduler was missing from Redis: set again');
      }
    } catch (error: unknown) {
      logger.warn({ err: error, schedulerId }, 'could not check the job scheduler; will retry');
    } finally {
      checking = false;
    }
  };
  const onReady = () => void setAgainIfLost();
  connection.on('ready', onReady);
  const timer = setInterval(onReady, options.checkEveryMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      connection.off('ready', onReady);
    },
  };
}
