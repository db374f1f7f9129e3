import type { Job } from 'bullmq';
import type { NewsletterRequestJob } from '@agency/contracts';
import {
  enqueueNewsletterConfirmations,
  recordQueuedSubscription,
  type Logger,
  type MailQueues,
  type SubscriberChanges,
} from '@agency/platform';

/**
 * Records a subscription request the API queued: pending with its consent
 * and a confirmation mail owed, or nothing for an address already confirmed,
 * then enqueues that mail. A retry records nothing twice that matters: the
 * latest request's mail is the one that goes out.
 */
export function newsletterRequestProcessor({
  queues,
  changes,
  logger,
}: {
  queues: MailQueues;
  /** The dashboard's kept figures, told when the address's status moves. */
  changes: SubscriberChanges;
  logger: Logger;
}) {
  return async (job: Job<NewsletterRequestJob>): Promise<'owed' | 'confirmed already'> => {
    const owed = await recordQueuedSubscription(
      job.data,
      (confirmation) => enqueueNewsletterConfirmations(queues, [confirmation]),
      changes,
    );
    logger.info({ jobId: job.id, owed: Boolean(owed) }, 'newsletter request recorded');
    return owed ? 'owed' : 'confirmed already';
  };
}
