import { Queue, type Processor, type Worker } from 'bullmq';
import type { QueueName } from '@agency/contracts';
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

/** Starts a queue's worker (the process's own starter, which logs failures). */
export type StartWorker<T> = (
  name: QueueName,
  processor: Processor<T>,
  concurrency: number,
) => Worker;

export interface ScheduledJob {
  close(): Promise<void>;
}

/** However long the interval, a scheduler Redis lost is set again within this. */
const SCHEDULER_CHECK_MS = 60_000;

/**
 * A periodic pass on a queue of its own: a job scheduler (upserted by every
 * worker process, stored once in Redis, kept by keepJobScheduler) adds one
 * job per interval, taken by whichever worker is free, one at a time per
 * process. A scheduler is created with its first pass due at once, so a new
 * installation, or a Redis that came back without its data, runs one
 * straight away. Passes carry no data: each reads what it needs.
 */
export async function startScheduledJob({
  name,
  schedulerId,
  everyMs,
  processor,
  connection,
  queuePrefix,
  logger,
  startWorker,
  abandonOnClose = false,
}: {
  name: QueueName;
  schedulerId: string;
  everyMs: number;
  processor: Processor<Record<string, never>>;
  connection: Redis;
  queuePrefix: string;
  logger: Logger;
  startWorker: StartWorker<Record<string, never>>;
  /**
   * A pass that may take minutes and may run again from the start (a
   * rebuild): a closing worker does not wait for it, and BullMQ hands it,
   * stalled, to the next worker that takes its queue.
   */
  abandonOnClose?: boolean;
}): Promise<ScheduledJob> {
  const queue = new Queue<Record<string, never>>(name, { connection, prefix: queuePrefix });
  queue.on('error', (error) => logger.warn({ queue: name, err: error.message }, 'queue error'));
  const worker = startWorker(name, processor, 1);
  const schedule = await keepJobScheduler({
    queue,
    connection,
    schedulerId,
    upsert: () =>
      queue.upsertJobScheduler(
        schedulerId,
        { every: everyMs },
        {
          name,
          data: {},
          // A pass is worth nothing once the next one ran: keep a short history only.
          opts: { removeOnComplete: { count: 20 }, removeOnFail: { count: 20 } },
        },
      ),
    checkEveryMs: Math.min(everyMs, SCHEDULER_CHECK_MS),
    logger,
  });
  return {
    async close() {
      schedule.stop();
      await worker.close(abandonOnClose);
      await queue.close();
    },
  };
}
