import type { Queue } from 'bullmq';
import { QUEUE_NAMES, contactMailJobId, type NewsletterConfirmationJob } from '@agency/contracts';
import { keepStoredContacts } from '../modules/contact/store';
import { findOwedMail } from '../modules/mail-outbox/store';
import {
  enqueueContactMails,
  enqueueNewsletterConfirmations,
  type MailQueues,
} from './mail-queues';

export interface OutboxRelayOptions {
  /** Only mail owed this long is enqueued again (the API enqueues the rest). */
  pendingAgeMs: number;
  /** Most mail jobs enqueued in one pass; the next pass takes the rest. */
  batchSize?: number;
  now?: Date;
}

export interface RelayedMail {
  /** Enquiries with at least one of their two mails owed. */
  contacts: number;
  newsletterConfirmations: number;
}

/** The ids whose job Redis does not hold (never added, or lost with Redis's data). */
async function withoutQueuedJob<T>(
  queue: Queue<T>,
  ids: readonly string[],
  jobIdOf: (id: string) => string,
): Promise<string[]> {
  const jobs = await Promise.all(ids.map((id) => queue.getJob(jobIdOf(id))));
  return ids.filter((_id, index) => !jobs[index]);
}

/**
 * One pass of the outbox relay: enqueues every mail job still in the outbox
 * that may never have reached Redis (it was down or frozen, or the API died
 * between the save and the enqueue). It reads the outbox only, which holds
 * just the jobs in flight, never the enquiries or subscribers. Job ids are
 * derived from the mail, so a job already queued, running or waiting for a
 * retry is not queued twice. The worker runs it from a BullMQ job
 * scheduler: one pass per interval however many API and worker copies run.
 */
export async function relayOwedMail(
  queues: MailQueues,
  { pendingAgeMs, batchSize = 500, now = new Date() }: OutboxRelayOptions,
): Promise<RelayedMail> {
  const owed = await findOwedMail(new Date(now.getTime() - pendingAgeMs), batchSize);
  const contacts: string[] = [];
  const confirmations: NewsletterConfirmationJob[] = [];
  for (const entry of owed) {
    if (entry.job === QUEUE_NAMES.contactMail && entry.contactId) contacts.push(entry.contactId);
    if (
      entry.job === QUEUE_NAMES.newsletterConfirmation &&
      entry.subscriberId &&
      entry.request !== undefined
    ) {
      confirmations.push({ subscriberId: entry.subscriberId, request: entry.request });
    }
  }
  // An entry whose job is in Redis (waiting, running, retrying) is in hand. One
  // without may belong to an enquiry that was never written (the API enqueues
  // only once both its writes are done), so that one is checked in the store.
  const withoutJob = await withoutQueuedJob(queues.contactMail, contacts, contactMailJobId);
  const unchecked = new Set(withoutJob);
  const storedContacts = [
    ...contacts.filter((id) => !unchecked.has(id)),
    ...(await keepStoredContacts(withoutJob)),
  ];
  await Promise.all([
    enqueueContactMails(queues, storedContacts),
    enqueueNewsletterConfirmations(queues, confirmations),
  ]);
  return { contacts: storedContacts.length, newsletterConfirmations: confirmations.length };
}
