import { trusted } from 'mongoose';
import {
  isLocale,
  NEWSLETTER_CONSENT_WORDING_VERSION,
  type Locale,
  type NewsletterConfirmationJob,
  type NewsletterRequestJob,
  type NewsletterSource,
} from '@agency/contracts';
import { isDuplicateKeyError } from '../database-errors';
import { oweConfirmationMail } from './confirmation-mail';
import { normalizeEmail } from './newsletter-token';
import { SubscriberModel } from './subscriber.model';

export interface SubscriptionRequest {
  email: string;
  locale: Locale;
  source: NewsletterSource;
  /** The visitor's address, kept as part of the consent record. */
  ip: string;
  at?: Date;
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
): Promise<NewsletterConfirmationJob | undefined> {
  const at = request.at ?? new Date();
  const email = normalizeEmail(request.email);
  try {
    // One atomic write: an upsert for a new address, an update for one that
    // is pending or left. A confirmed address fails the filter, so the upsert
    // collides with it on the unique e-mail index.
    const subscriber = await SubscriberModel.findOneAndUpdate(
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
          },
        },
        $inc: { confirmationRequests: 1 },
      },
      { upsert: true, returnDocument: 'after', runValidators: true },
    ).exec();
    const owed = {
      subscriberId: subscriber.id as string,
      request: subscriber.confirmationRequests,
    };
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
}

/**
 * Records a request that the API queued (the worker calls this), then
 * enqueues the confirmation mail it owes, if any. Should that enqueue fail,
 * the mail is owed in the outbox and the relay sends it.
 */
export async function recordQueuedSubscription(
  job: NewsletterRequestJob,
  enqueue: (owed: NewsletterConfirmationJob) => Promise<void>,
): Promise<NewsletterConfirmationJob | undefined> {
  const owed = await requestSubscription({
    email: job.email,
    locale: isLocale(job.locale) ? job.locale : 'en',
    source: job.source,
    ip: job.ip,
    at: new Date(job.requestedAt),
  });
  if (owed) await enqueue(owed).catch(() => undefined);
  return owed;
}
