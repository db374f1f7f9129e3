import { Worker, type Job } from 'bullmq';
import { QUEUE_NAMES, type ContactNotificationJob } from '@agency/contracts';
import type { Logger, Redis } from '@agency/backend/store';
import type { MailTransport } from './mail/transport';
import {
  contactNotificationProcessor,
  recordContactNotificationFailure,
} from './jobs/contact-notification.processor';

export interface WorkersOptions {
  connection: Redis;
  queuePrefix: string;
  concurrency: number;
  transport: MailTransport;
  mailFrom: string;
  mailTo: string;
  logger: Logger;
}

export interface RunningWorkers {
  /** Finishes the jobs in hand, then stops taking new ones. */
  close(): Promise<void>;
}

function isFinalAttempt(job: Job): boolean {
  return job.attemptsMade >= (job.opts.attempts ?? 1);
}

/** One BullMQ Worker per queue; more processes means more throughput. */
export function startWorkers(options: WorkersOptions): RunningWorkers {
  const { connection, queuePrefix, concurrency, logger } = options;
  const contactNotifications = new Worker<ContactNotificationJob>(
    QUEUE_NAMES.contactNotification,
    contactNotificationProcessor(options),
    { connection, prefix: queuePrefix, concurrency },
  );
  contactNotifications.on('failed', (job, error) => {
    if (!job) return;
    logger.warn(
      { jobId: job.id, attempt: job.attemptsMade, err: error.message },
      'enquiry notification failed',
    );
    if (isFinalAttempt(job)) {
      recordContactNotificationFailure(job, error).catch((recordError: unknown) =>
        logger.error({ err: recordError, jobId: job.id }, 'could not record mail failure'),
      );
    }
  });
  contactNotifications.on('error', (error) => logger.error({ err: error }, 'worker error'));

  return {
    close: () => contactNotifications.close(),
  };
}
