import { Queue } from 'bullmq';
import { QUEUE_NAMES, campaignDispatchJobId, type CampaignDispatchJob } from '@agency/contracts';
import type { Redis } from './redis-connection';
import { withTimeout } from '../timeout';
import { MAIL_JOB_OPTIONS } from './mail-queues';

const ENQUEUE_TIMEOUT_MS = 2000;

export interface CampaignQueue {
  dispatch: Queue<CampaignDispatchJob>;
  close(): Promise<void>;
}

/** The queue of campaign sends: one dispatch job per campaign, expanded by the worker. */
export function createCampaignQueue(connection: Redis, prefix: string): CampaignQueue {
  const dispatch = new Queue<CampaignDispatchJob>(QUEUE_NAMES.campaignDispatch, {
    connection,
    prefix,
    defaultJobOptions: MAIL_JOB_OPTIONS,
  });
  // Without a listener an unreachable Redis would crash the process; the send
  // route reports it to the user instead.
  dispatch.on('error', () => undefined);
  return { dispatch, close: () => dispatch.close() };
}

/**
 * Enqueues the dispatch of a campaign. The job id is the campaign's, so a
 * repeated request or a retry after a timeout cannot start the send twice.
 */
export async function enqueueCampaignDispatch(
  queue: CampaignQueue,
  campaignId: string,
): Promise<void> {
  await withTimeout(
    queue.dispatch.add(
      QUEUE_NAMES.campaignDispatch,
      { campaignId },
      { jobId: campaignDispatchJobId(campaignId) },
    ),
    ENQUEUE_TIMEOUT_MS,
  );
}
