import { Queue } from 'bullmq';
import { QUEUE_NAMES, passwordResetJobId, type PasswordResetJob } from '@agency/contracts';
import { MAIL_JOB_OPTIONS, type Redis, withTimeout } from '@agency/platform';

/** A last guard on top of the connection's own command timeout. */
const ENQUEUE_TIMEOUT_MS = 2000;

export type PasswordResetQueue = Queue<PasswordResetJob>;

/** The reset mails, sent by the worker with the mail queues' retries. */
export function createPasswordResetQueue(connection: Redis, prefix: string): PasswordResetQueue {
  const queue = new Queue<PasswordResetJob>(QUEUE_NAMES.passwordReset, {
    connection,
    prefix,
    defaultJobOptions: MAIL_JOB_OPTIONS,
  });
  queue.on('error', () => undefined);
  return queue;
}

export async function enqueuePasswordReset(
  queue: PasswordResetQueue,
  job: PasswordResetJob,
): Promise<void> {
  await withTimeout(
    queue.add(QUEUE_NAMES.passwordReset as never, job, {
      jobId: passwordResetJobId(job.requestId),
    }),
    ENQUEUE_TIMEOUT_MS,
  );
}
