import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { QUEUE_NAMES, privacyLinkJobId, type PrivacyLinkJob } from '@agency/contracts';
import { MAIL_JOB_OPTIONS, type Redis, withTimeout } from '@agency/platform';

/** A last guard on top of the connection's own command timeout. */
const ENQUEUE_TIMEOUT_MS = 2000;

export type PrivacyLinkQueue = Queue<PrivacyLinkJob>;

/**
 * The mails with a person's own download or erasure link: the mail queues'
 * retries, but the job (which carries the address) goes as soon as it ends.
 */
export function createPrivacyLinkQueue(connection: Redis, prefix: string): PrivacyLinkQueue {
  const queue = new Queue<PrivacyLinkJob>(QUEUE_NAMES.privacyLink, {
    connection,
    prefix,
    defaultJobOptions: { ...MAIL_JOB_OPTIONS, removeOnComplete: true, removeOnFail: true },
  });
  queue.on('error', () => undefined);
  return queue;
}

/** Queues one request's mail; each request has an id of its own, so each is mailed. */
export async function enqueuePrivacyLink(
  queue: PrivacyLinkQueue,
  job: Omit<PrivacyLinkJob, 'requestId'>,
): Promise<void> {
  const requestId = randomBytes(12).toString('hex');
  await withTimeout(
    queue.add(
      QUEUE_NAMES.privacyLink as never,
      { requestId, ...job },
      { jobId: privacyLinkJobId(requestId) },
    ),
    ENQUEUE_TIMEOUT_MS,
  );
}
