import { Queue, type Job } from 'bullmq';
import { QUEUE_NAMES, type CampaignEventsJob } from '@agency/contracts';
import {
  createCampaignEventWriter,
  type EventWriteReport,
  type Logger,
  type Redis,
} from '@agency/platform';
import type { ScheduledJob, StartWorker } from '../job-schedulers';

/** Counts one batch of the opens and clicks the API answered; the job's id is the batch's. */
export function campaignEventsProcessor(logger: Logger) {
  const writer = createCampaignEventWriter(logger);
  return async (job: Job<CampaignEventsJob>): Promise<EventWriteReport> =>
    writer.write(job.data.events ?? [], job.id ?? job.name);
}

/**
 * The event writer's queue and worker. The queue's global concurrency is 1:
 * one batch at a time across every worker process, because the store
 * (FerretDB 1.x) does not serialise two updates of one results document
 * (see campaign-event-writer.ts). A batch is a few writes, so one at a time
 * keeps up with the endpoints' buffer, which sends hundreds of events per batch.
 */
export async function startCampaignEventCounting({
  connection,
  queuePrefix,
  logger,
  startWorker,
  keepEveryMs = 60_000,
}: {
  connection: Redis;
  queuePrefix: string;
  logger: Logger;
  startWorker: StartWorker<CampaignEventsJob>;
  /** How often the global concurrency is set again. */
  keepEveryMs?: number;
}): Promise<ScheduledJob> {
  const queue = new Queue<CampaignEventsJob>(QUEUE_NAMES.campaignEvents, {
    connection,
    prefix: queuePrefix,
  });
  queue.on('error', (error) => logger.warn({ err: error.message }, 'campaign events queue error'));
  await queue.setGlobalConcurrency(1);
  // The setting lives in Redis: one that came back without its data (or a
  // failover to a replica that had not received it) would let batches run
  // at once again, so it is set again on reconnection and every minute.
  const keepOneAtATime = () => {
    queue
      .setGlobalConcurrency(1)
      .catch((error: unknown) =>
        logger.warn({ err: error }, 'could not keep the campaign events one at a time; will retry'),
      );
  };
  connection.on('ready', keepOneAtATime);
  const timer = setInterval(keepOneAtATime, keepEveryMs);
  timer.unref();
  const worker = startWorker(QUEUE_NAMES.campaignEvents, campaignEventsProcessor(logger), 1);
  return {
    async close() {
      clearInterval(timer);
      connection.off('ready', keepOneAtATime);
      await worker.close();
      await queue.close();
    },
  };
}
