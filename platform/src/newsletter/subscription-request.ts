import { trusted } from 'mongoose';
import {
  isLocale,
  NEWSLETTER_CONSENT_WORDING_VERSION,
  type Locale,
  type NewsletterConfirmationJob,
  type NewsletterRequestJob,
  type NewsletterSource,
  type SubscriberStatus,
} from '@agency/contracts';
import { isDuplicateKeyError } from '../database-errors';
import { oneWriterPerDocument } from '../embedded-store';
import { oweConfirmationMail } from './confirmation-mail';
import { normalizeEmail } from '../mail/email-address';
import type { SubscriberChanges } from './subscriber-changes';
import { SubscriberModel } from './subscriber.model';

/**
 * One atomic write that inserts the address when it is new, and answers the
 * document as it was before (null for a new one) with the new one's id:
 * from that "before" the kept figures learn which status the address left.
 */
export const UPSERT_READING_BEFORE = {
  upsert: true,
  returnDocument: 'before',
  includeResultMetadata: true,
  runValidators: true,
} as const;

export interface SubscriptionRequest {
  email: string;
  locale: Locale;
  source: NewsletterSource;
  /** The visitor's address, kept as part of the consent record. */
  ip: string;
  at?: Date;
  /** Public lists chosen on the form, checked by the API: joined on confirmation. */
  listIds?: string[];
}

/**
 * Records a request to join the newsletter and says which confirmation mail
 * it owes, if any. A new, pending or unsubscribed address becomes `pending`
 * with a fresh consent record and one more confirmation mail owed (in the
 * request's language); a confirmed address is left as it is and owes nothing.
 * The caller answers the same in every case.
 */
export async function requestSubscription(
  request: SubscriptionRequest,
  changes: SubscriberChanges,
): Promise<NewsletterConfirmationJob | undefined> {
  const at = request.at ?? new Date();
  const email = normalizeEmail(request.email);
  return oneWriterPerDocument(`subscriber:${email}`, async () => {
    try {
      // One atomic write: an upsert for a new address, an update for one that
      // is pending or left. A confirmed address fails the filter, so the upsert
      // collides with it on the unique e-mail index. The document as it was
      // tells the kept figures which status the address left.
      const written = await SubscriberModel.findOneAndUpdate(
        { email, status: trusted({ $ne: 'confirmed' }) },
        {
          $set: {
            status: 'pending',
            locale: request.locale,
            consent: {
              requestedAt: at,
              ip: request.ip,
              locale: request.locale,
              source: request.source,
              wordingVersion: NEWSLETTER_CONSENT_WORDING_VERSION,
              ...(request.listIds?.length ? { listIds: request.listIds } : {}),
            },
          },
          $inc: { confirmationRequests: 1 },
        },
        UPSERT_READING_BEFORE,
      ).exec();
      const before = written.value;
      const subscriberId = before ? String(before._id) : String(written.lastErrorObject?.upserted);
      const owed = { subscriberId, request: (before?.confirmationRequests ?? 0) + 1 };
      if (before?.status !== 'pending') {
        await changes.statusChanged(email, (before?.status as SubscriberStatus) ?? null, 'pending');
      }
      // The visitor hears "accepted" only once the mail is owed too: if this
      // write fails they are told so, and asking again owes a new mail.
      await oweConfirmationMail(owed);
      return owed;
    } catch (error: unknown) {
      // Confirmed already (or the same address inserted a moment ago by a twin
      // request, whose own answer owes the mail): nothing more to send.
      if (isDuplicateKeyError(error)) return undefined;
      throw error;
    }
  });
}

/**
 * Records a request that the API queued (the worker calls this), then
 * enqueues the confirmation mail it owes, if any. Should that enqueue fail,
 * the mail is owed in the outbox and the relay sends it.
 */
export async function recordQueuedSubscription(
  job: NewsletterRequestJob,
  enqueue: (owed: NewsletterConfirmationJob) => Promise<void>,
  changes: SubscriberChanges,
): Promise<NewsletterConfirmationJob | undefined> {
  const owed = await requestSubscription(
    {
      email: job.email,
      locale: isLocale(job.locale) ? job.locale : 'en',
      source: job.source,
      ip: job.ip,
      at: new Date(job.requestedAt),
      ...(job.listIds ? { listIds: job.listIds } : {}),
    },
    changes,
  );
  if (owed) await enqueue(owed).catch(() => undefined);
  return owed;
}
