import {
  findContactIdsAwaitingAcknowledgement,
  findContactIdsAwaitingMail,
} from '../modules/contact/store';
import { findConfirmationsAwaitingMail } from '../modules/newsletter/store';
import {
  enqueueContactMails,
  enqueueNewsletterConfirmations,
  type MailQueues,
} from './mail-queues';

export interface OutboxRelayOptions {
  /** Only mail left `pending` this long is enqueued again (the API enqueues the rest). */
  pendingAgeMs: number;
  /** Most mails of each kind enqueued in one pass; the next pass takes the rest. */
  batchSize?: number;
  now?: Date;
}

export interface RelayedMail {
  /** Enquiries with at least one of their two mails owed. */
  contacts: number;
  newsletterConfirmations: number;
}

/**
 * One pass of the outbox relay: enqueues every mail still owed in MongoDB
 * that may never have reached Redis (it was down or frozen, or the API died
 * between the save and the enqueue). Job ids are derived from the mail, so a
 * mail already queued, running or waiting for a retry is not queued twice.
 * The worker runs it from a BullMQ job scheduler: one pass per interval
 * however many API and worker copies run.
 */
export async function relayOwedMail(
  queues: MailQueues,
  { pendingAgeMs, batchSize = 500, now = new Date() }: OutboxRelayOptions,
): Promise<RelayedMail> {
  const olderThan = new Date(now.getTime() - pendingAgeMs);
  const [notifications, acknowledgements, confirmations] = await Promise.all([
    findContactIdsAwaitingMail(olderThan, batchSize),
    findContactIdsAwaitingAcknowledgement(olderThan, batchSize),
    findConfirmationsAwaitingMail(olderThan, batchSize),
  ]);
  const contacts = [...new Set([...notifications, ...acknowledgements])];
  await Promise.all([
    enqueueContactMails(queues, contacts),
    enqueueNewsletterConfirmations(queues, confirmations),
  ]);
  return { contacts: contacts.length, newsletterConfirmations: confirmations.length };
}
