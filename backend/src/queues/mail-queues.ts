import { Queue, type JobsOptions } from 'bullmq';
import {
  QUEUE_NAMES,
  contactNotificationJobId,
  type ContactNotificationJob,
} from '@agency/contracts';
import type { Redis } from './redis-connection';
import { withTimeout } from '../timeout';

/** Retries with growing pauses ride out an SMTP server that is briefly down. */
export const MAIL_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 5000 },
  // Completed jobs stay a day so a re-enqueue with the same id is a no-op.
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

const ENQUEUE_TIMEOUT_MS = 2000;

export interface MailQueues {
  contactNotification: Queue<ContactNotificationJob>;
  close(): Promise<void>;
}

export function createMailQueues(
  connection: Redis,
  prefix: string,
  jobOptions: JobsOptions = MAIL_JOB_OPTIONS,
): MailQueues {
  const contactNotification = new Queue<ContactNotificationJob>(QUEUE_NAMES.contactNotification, {
    connection,
    prefix,
    defaultJobOptions: jobOptions,
  });
  // Without a listener an unreachable Redis would crash the process; the
  // health check and the outbox relay already report and recover from it.
  contactNotification.on('error', () => undefined);
  return {
    contactNotification,
    close: () => contactNotification.close(),
  };
}

/**
 * Enqueues the notification mails of these contacts. The job id is derived
 * from the contact, so enqueueing twice (API, then relay) creates one job.
 */
export async function enqueueContactNotifications(
  queues: MailQueues,
  contactIds: readonly string[],
): Promise<void> {
  if (contactIds.length === 0) return;
  const jobs = contactIds.map((contactId) => ({
    name: QUEUE_NAMES.contactNotification,
    data: { contactId },
    // Retries, backoff and retention come from the queue's default job options.
    opts: { jobId: contactNotificationJobId(contactId) },
  }));
  await withTimeout(queues.contactNotification.addBulk(jobs), ENQUEUE_TIMEOUT_MS);
}
