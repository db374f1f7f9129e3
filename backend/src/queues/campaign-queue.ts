import { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import {
  QUEUE_NAMES,
  campaignDispatchJobId,
  campaignRoundDispatchJobId,
  campaignScheduleJobId,
  type CampaignDispatchJob,
  type CampaignScheduleJob,
  type CampaignTestSendJob,
} from '@agency/contracts';
import { type Redis, withTimeout, MAIL_JOB_OPTIONS } from '@agency/platform';

const ENQUEUE_TIMEOUT_MS = 2000;

export interface CampaignQueue {
  dispatch: Queue<CampaignDispatchJob>;
  testSend: Queue<CampaignTestSendJob>;
  schedule: Queue<CampaignScheduleJob>;
  close(): Promise<void>;
}

/** The queue of campaign sends: one dispatch job per campaign, expanded by the worker. */
export function createCampaignQueue(connection: Redis, prefix: string): CampaignQueue {
  const dispatch = new Queue<CampaignDispatchJob>(QUEUE_NAMES.campaignDispatch, {
    connection,
    prefix,
    defaultJobOptions: MAIL_JOB_OPTIONS,
  });
  // Without a listener BullMQ prints every connection error of an unreachable
  // Redis to the console; the send route reports it to the user instead.
  dispatch.on('error', () => undefined);
  const testSend = new Queue<CampaignTestSendJob>(QUEUE_NAMES.campaignTestSend, {
    connection,
    prefix,
    defaultJobOptions: { ...MAIL_JOB_OPTIONS, attempts: 3 },
  });
  testSend.on('error', () => undefined);
  const schedule = new Queue<CampaignScheduleJob>(QUEUE_NAMES.campaignSchedule, {
    connection,
    prefix,
    defaultJobOptions: MAIL_JOB_OPTIONS,
  });
  schedule.on('error', () => undefined);
  return {
    dispatch,
    testSend,
    schedule,
    close: async () => {
      await Promise.all([dispatch.close(), testSend.close(), schedule.close()]);
    },
  };
}

/** The dispatch of a resumed pass or of a resend round: a new id for each, idempotent in itself. */
export async function enqueueRoundDispatch(
  queue: CampaignQueue,
  campaignId: string,
  round: number,
  pass: number,
): Promise<void> {
  await withTimeout(
    queue.dispatch.add(
      QUEUE_NAMES.campaignDispatch,
      { campaignId },
      { jobId: campaignRoundDispatchJobId(campaignId, round, pass) },
    ),
    ENQUEUE_TIMEOUT_MS,
  );
}

/** Each test send is its own mail: a fresh id, retried a little only. */
export async function enqueueTestSend(
  queue: CampaignQueue,
  job: CampaignTestSendJob,
): Promise<void> {
  await withTimeout(
    queue.testSend.add(QUEUE_NAMES.campaignTestSend, job, {
      jobId: `campaign-test-${job.campaignId}-${randomUUID()}`,
    }),
    ENQUEUE_TIMEOUT_MS,
  );
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

/**
 * The delayed job that starts a scheduled campaign at its time. Redis keeps
 * it across restarts of the API and the worker; should Redis lose it, the
 * worker's recovery starts the campaign from the store once its time is past.
 */
export async function enqueueSchedule(
  queue: CampaignQueue,
  campaignId: string,
  scheduledAt: Date,
): Promise<void> {
  await withTimeout(
    queue.schedule.add(
      QUEUE_NAMES.campaignSchedule,
      { campaignId, scheduledAt: scheduledAt.toISOString() },
      {
        jobId: campaignScheduleJobId(campaignId, scheduledAt),
        delay: Math.max(scheduledAt.getTime() - Date.now(), 0),
      },
    ),
    ENQUEUE_TIMEOUT_MS,
  );
}

/**
 * Drops the delayed job of a time given up (moved or unscheduled). Only
 * tidiness: a job left behind finds the campaign no longer scheduled for its
 * time and does nothing.
 */
export async function dropSchedule(
  queue: CampaignQueue,
  campaignId: string,
  scheduledAt: Date,
): Promise<void> {
  await withTimeout(
    queue.schedule.remove(campaignScheduleJobId(campaignId, scheduledAt)),
    ENQUEUE_TIMEOUT_MS,
  ).catch(() => undefined);
}
