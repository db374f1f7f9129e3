import type { Job } from 'bullmq';
import type { OutboxRelayJob } from '@agency/contracts';
import { relayOwedMail, type Logger, type MailQueues, type RelayedMail } from '@agency/platform';

export interface OutboxRelayDeps {
  queues: MailQueues;
  /** Mail owed for less than this is left to the API's own enqueue. */
  pendingAgeMs: number;
  logger: Logger;
}

/** One pass of the outbox relay, run by the job scheduler once per interval. */
export function outboxRelayProcessor({ queues, pendingAgeMs, logger }: OutboxRelayDeps) {
  return async (_job: Job<OutboxRelayJob>): Promise<RelayedMail> => {
    const relayed = await relayOwedMail(queues, { pendingAgeMs });
    if (relayed.contacts + relayed.newsletterConfirmations > 0)
      logger.info(relayed, 'outbox relay enqueued owed mail');
    return relayed;
  };
}
