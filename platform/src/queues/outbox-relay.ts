import type { Queue } from 'bullmq';
import {
  QUEUE_NAMES,
  contactMailJobId,
  newsletterConfirmationJobId,
  type NewsletterConfirmationJob,
} from '@agency/contracts';
import {
  keepStoredContacts,
  settleContactMails,
  UNWRITTEN_ENQUIRY_GRACE_MS,
} from '../contact/contact-mail-state';
import { findOwedMail } from '../mail-outbox/mail-outbox.service';
import {
  enqueueContactMails,
  enqueueNewsletterConfirmations,
  type MailQueues,
} from './mail-queues';

export interface OutboxRelayOptions {
  /** Only mail owed this long is enqueued again (the API enqueues the rest). */
  pendingAgeMs: number;
  /** Entries read at once; a pass reads more batches only while whole ones come out settled. */
  batchSize?: number;
  now?: Date;
}

export interface RelayedMail {
  /** Enquiries with at least one of their two mails owed. */
  contacts: number;
  newsletterConfirmations: number;
}

interface JobsByState {
  /** Redis does not hold their job (never added, or lost with Redis's data). */
  missing: string[];
  /** Their job completed: every mail of it is sent and has its receipt. */
  completed: string[];
  /** Their job waits, runs, waits for a retry, or failed: it is in hand. */
  inHand: string[];
}

/** Sorts ids by where Redis says their job stands. */
async function byJobState<T>(
  queue: Queue<T>,
  ids: readonly string[],
  jobIdOf: (id: string) => string,
): Promise<JobsByState> {
  const states = await Promise.all(ids.map((id) => queue.getJobState(jobIdOf(id))));
  const sorted: JobsByState = { missing: [], completed: [], inHand: [] };
  ids.forEach((id, index) => {
    const state = states[index];
    if (state === 'unknown') sorted.missing.push(id);
    else if (state === 'completed') sorted.completed.push(id);
    else sorted.inHand.push(id);
  });
  return sorted;
}

/** Most batches one pass reads: a bound on how long it holds the store. */
const MAX_BATCHES_PER_PASS = 20;

/** What one batch of the outbox came to. */
interface BatchOutcome {
  /** Enquiries still owing mail, enqueued (a no-op for a job in hand). */
  contacts: string[];
  confirmations: NewsletterConfirmationJob[];
  /** Entries read, and how many of them were taken out (their job completed). */
  read: number;
  settled: number;
}

/**
 * One pass of the outbox relay: enqueues every mail job still in the outbox
 * that may never have reached Redis (it was down or frozen, or the API died
 * between the save and the enqueue). It reads the outbox only, which holds
 * just the jobs in flight, never the enquiries or subscribers. Job ids are
 * derived from the mail, so a job already queued, running or waiting for a
 * retry is not queued twice. The worker runs it from a BullMQ job
 * scheduler: one pass per interval however many API and worker copies run.
 *
 * It also takes out of the outbox the enquiries whose job completed: the
 * worker does not delete them one job at a time, because on the embedded
 * store a delete scans the outbox while holding the only writer, which the
 * API's inserts wait on. One delete per batch costs one scan. While whole
 * batches of completed jobs come out, the pass goes on (up to
 * `MAX_BATCHES_PER_PASS`), so the outbox shrinks as fast as a burst filled it.
 */
export async function relayOwedMail(
  queues: MailQueues,
  { pendingAgeMs, batchSize = 500, now = new Date() }: OutboxRelayOptions,
): Promise<RelayedMail> {
  const olderThan = new Date(now.getTime() - pendingAgeMs);
  const contacts = new Set<string>();
  const confirmations = new Map<string, NewsletterConfirmationJob>();
  for (let batch = 0; batch < MAX_BATCHES_PER_PASS; batch += 1) {
    const outcome = await relayBatch(queues, { olderThan, batchSize, now });
    outcome.contacts.forEach((id) => contacts.add(id));
    for (const confirmation of outcome.confirmations) {
      confirmations.set(
        newsletterConfirmationJobId(confirmation.subscriberId, confirmation.request),
        confirmation,
      );
    }
    if (outcome.read < batchSize || outcome.settled === 0) break;
  }
  return { contacts: contacts.size, newsletterConfirmations: confirmations.size };
}

/** The oldest `batchSize` entries owed since before `olderThan`: enqueued, or taken out once done. */
async function relayBatch(
  queues: MailQueues,
  { olderThan, batchSize, now }: { olderThan: Date; batchSize: number; now: Date },
): Promise<BatchOutcome> {
  const owed = await findOwedMail(olderThan, batchSize);
  const contacts: string[] = [];
  const owedSince = new Map<string, Date>();
  const confirmations: NewsletterConfirmationJob[] = [];
  for (const entry of owed) {
    if (entry.job === QUEUE_NAMES.contactMail && entry.contactId) {
      contacts.push(entry.contactId);
      owedSince.set(entry.contactId, entry.createdAt);
    }
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
  const jobs = await byJobState(queues.contactMail, contacts, contactMailJobId);
  const missing = jobs.missing.map((id) => ({ id, owedSince: owedSince.get(id) ?? new Date() }));
  const abandonedBefore = new Date(now.getTime() - UNWRITTEN_ENQUIRY_GRACE_MS);
  const storedContacts = [...jobs.inHand, ...(await keepStoredContacts(missing, abandonedBefore))];
  await Promise.all([
    // Deletes issued together go to the store as one (see batched-writes.ts).
    ...jobs.completed.map((id) => settleContactMails(id)),
    // Without what the mails are written from: such a job reads the outbox
    // entry and the receipts, as it may follow a run that sent some.
    enqueueContactMails(
      queues,
      storedContacts.map((contactId) => ({ contactId })),
    ),
    enqueueNewsletterConfirmations(queues, confirmations),
  ]);
  return {
    contacts: storedContacts,
    confirmations,
    read: owed.length,
    settled: jobs.completed.length,
  };
}
