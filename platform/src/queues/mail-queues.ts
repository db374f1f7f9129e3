import { Queue, type JobsOptions } from 'bullmq';
import {
  QUEUE_NAMES,
  contactMailJobId,
  newsletterConfirmationJobId,
  type ContactMailJob,
  type NewsletterConfirmationJob,
  type NewsletterRequestJob,
} from '@agency/contracts';
import type { Redis } from '../redis-connection';
import { withTimeout } from '../timeout';

/**
 * Retries with growing pauses (5 s, 10 s, 20 s ... about 21 minutes in all)
 * ride out an SMTP server that is briefly down or answers 4xx. A 5xx refusal
 * is not retried: the worker records it at once.
 */
export const MAIL_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 5000 },
  // Completed jobs stay a day so a re-enqueue with the same id is a no-op.
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
};

/** A last guard on top of the connection's own command timeout. */
const ENQUEUE_TIMEOUT_MS = 2000;

export interface MailQueues {
  contactMail: Queue<ContactMailJob>;
  newsletterConfirmation: Queue<NewsletterConfirmationJob>;
  newsletterRequest: Queue<NewsletterRequestJob>;
  /** Every queue above, for whoever must clean them all (tests, shutdown). */
  all(): Queue[];
  close(): Promise<void>;
}

export function createMailQueues(
  connection: Redis,
  prefix: string,
  jobOptions: JobsOptions = MAIL_JOB_OPTIONS,
): MailQueues {
  function mailQueue<T>(name: string): Queue<T> {
    const queue = new Queue<T>(name, { connection, prefix, defaultJobOptions: jobOptions });
    // Without a listener BullMQ prints every connection error of an
    // unreachable Redis to the console, once per reconnect; the health check
    // and the outbox relay already report and recover from it.
    queue.on('error', () => undefined);
    return queue;
  }
  const queues = {
    contactMail: mailQueue<ContactMailJob>(QUEUE_NAMES.contactMail),
    newsletterConfirmation: mailQueue<NewsletterConfirmationJob>(
      QUEUE_NAMES.newsletterConfirmation,
    ),
    newsletterRequest: mailQueue<NewsletterRequestJob>(QUEUE_NAMES.newsletterRequest),
  };
  const all = (): Queue[] => Object.values(queues);
  return {
    ...queues,
    all,
    close: async () => {
      await Promise.all(all().map((queue) => queue.close()));
    },
  };
}

interface OwedMail<T> {
  data: T;
  jobId: string;
}

/**
 * Adds one job per owed mail. The job id is derived from the mail, so
 * enqueueing twice (the API, then the relay) creates one job.
 */
async function enqueueOwed<T>(queue: Queue<T>, mails: readonly OwedMail<T>[]): Promise<void> {
  if (mails.length === 0) return;
  const jobs = mails.map(({ data, jobId }) => ({
    name: queue.name,
    data,
    // Retries, backoff and retention come from the queue's default job options.
    opts: { jobId },
  }));
  // addBulk's types want the queue's own name type; our queues use plain names.
  await withTimeout(queue.addBulk(jobs as Parameters<Queue<T>['addBulk']>[0]), ENQUEUE_TIMEOUT_MS);
}

/**
 * Enqueues the mails these enquiries owe: the agency's notification and the
 * visitor's acknowledgement travel in one job per enquiry.
 */
export function enqueueContactMails(
  queues: MailQueues,
  jobs: readonly ContactMailJob[],
): Promise<void> {
  const byContact = new Map(jobs.map((job) => [job.contactId, job]));
  return enqueueOwed(
    queues.contactMail,
    [...byContact.values()].map((data) => ({ data, jobId: contactMailJobId(data.contactId) })),
  );
}

/** Enqueues the double opt-in mail of these subscription requests. */
export function enqueueNewsletterConfirmations(
  queues: MailQueues,
  requests: readonly NewsletterConfirmationJob[],
): Promise<void> {
  return enqueueOwed(
    queues.newsletterConfirmation,
    requests.map(({ subscriberId, request }) => ({
      data: { subscriberId, request },
      jobId: newsletterConfirmationJobId(subscriberId, request),
    })),
  );
}

/** Hands a subscription request to the worker: one Redis write, whatever the address. */
export async function enqueueNewsletterRequest(
  queues: MailQueues,
  request: NewsletterRequestJob,
): Promise<void> {
  await withTimeout(
    queues.newsletterRequest.add(QUEUE_NAMES.newsletterRequest as never, request),
    ENQUEUE_TIMEOUT_MS,
  );
}
