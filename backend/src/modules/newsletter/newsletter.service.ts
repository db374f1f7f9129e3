import { isValidObjectId, trusted } from 'mongoose';
import {
  isLocale,
  NEWSLETTER_CONFIRMATION_TTL_MS,
  NEWSLETTER_CONSENT_WORDING_VERSION,
  QUEUE_NAMES,
  type Locale,
  type NewsletterConfirmationJob,
  type NewsletterRequestJob,
  type NewsletterSource,
} from '@agency/contracts';
import {
  SubscriberModel,
  type SubscriberDocument,
  type UnsubscribeMethod,
} from './subscriber.model';
import {
  normalizeEmail,
  verifyConfirmationToken,
  verifyUnsubscribeToken,
} from './newsletter-token';
import { isDuplicateKeyError } from '../../database-errors';
import {
  findReceipt,
  oweMail,
  recordReceipt,
  settleOwedMail,
  type Receipt,
  type ReceiptMail,
} from '../mail-outbox/store';

/** Addresses that confirmed their subscription and have not left since. */
export async function countConfirmedSubscribers(): Promise<number> {
  return SubscriberModel.countDocuments({ status: 'confirmed' }).exec();
}

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

export type ConfirmOutcome =
  { outcome: 'confirmed'; locale: Locale } | { outcome: 'expired' } | { outcome: 'invalid' };

async function findSubscriber(id: string): Promise<SubscriberDocument | null> {
  return isValidObjectId(id) ? SubscriberModel.findById(id).exec() : null;
}

/**
 * Confirms the subscription a link names. Clicking again is harmless; a link
 * older than the confirmation window, or for an address that has since left,
 * no longer subscribes anyone.
 */
export async function confirmSubscription(
  token: string,
  { secret, ip, now = new Date() }: { secret: string; ip: string; now?: Date },
): Promise<ConfirmOutcome> {
  const claims = verifyConfirmationToken(token, secret);
  if (!claims) return { outcome: 'invalid' };
  const subscriber = await findSubscriber(claims.subscriberId);
  if (!subscriber) return { outcome: 'invalid' };
  if (subscriber.status === 'confirmed') {
    return { outcome: 'confirmed', locale: subscriber.locale as Locale };
  }
  const age = now.getTime() - claims.issuedAt.getTime();
  if (subscriber.status !== 'pending' || age > NEWSLETTER_CONFIRMATION_TTL_MS) {
    return { outcome: 'expired' };
  }
  const confirmed = await SubscriberModel.findOneAndUpdate(
    { _id: subscriber._id, status: 'pending' },
    {
      $set: {
        status: 'confirmed',
        confirmedAt: now,
        'consent.confirmedAt': now,
        'consent.confirmedIp': ip,
      },
    },
    { returnDocument: 'after' },
  ).exec();
  if (confirmed) return { outcome: 'confirmed', locale: confirmed.locale as Locale };
  // A twin click confirmed it in between (fine), or an unsubscribe (too late).
  const current = await findSubscriber(claims.subscriberId);
  return current?.status === 'confirmed'
    ? { outcome: 'confirmed', locale: current.locale as Locale }
    : { outcome: 'expired' };
}

export type UnsubscribeOutcome =
  { outcome: 'unsubscribed'; locale: Locale } | { outcome: 'invalid' };

/**
 * Takes the address a link names off the list at once. Unsubscribing twice is
 * harmless; an address the agency mailed without a subscription (a campaign
 * to contacts) is recorded as unsubscribed so it stays excluded.
 */
export async function unsubscribe(
  token: string,
  { secret, method, now = new Date() }: { secret: string; method: UnsubscribeMethod; now?: Date },
): Promise<UnsubscribeOutcome> {
  const email = verifyUnsubscribeToken(token, secret);
  if (!email) return { outcome: 'invalid' };
  try {
    const subscriber = await SubscriberModel.findOneAndUpdate(
      { email, status: trusted({ $ne: 'unsubscribed' }) },
      { $set: { status: 'unsubscribed', unsubscribedAt: now, unsubscribeMethod: method } },
      { upsert: true, returnDocument: 'after', runValidators: true },
    ).exec();
    return { outcome: 'unsubscribed', locale: subscriber.locale as Locale };
  } catch (error: unknown) {
    if (!isDuplicateKeyError(error)) throw error;
    // Already unsubscribed: the upsert met the existing record.
    const existing = await SubscriberModel.findOne({ email }).exec();
    return { outcome: 'unsubscribed', locale: (existing?.locale ?? 'en') as Locale };
  }
}

/* ---------------------------------------------------------------------------
 * The confirmation mail's outbox entry and receipt, driven by the worker
 * ------------------------------------------------------------------------- */

export async function findSubscriberById(id: string): Promise<SubscriberDocument | null> {
  return findSubscriber(id);
}

export async function findSubscriberByEmail(email: string): Promise<SubscriberDocument | null> {
  return SubscriberModel.findOne({ email: normalizeEmail(email) }).exec();
}

/** One id for the outbox entry and the receipt of one request's confirmation mail. */
export function confirmationMailId({ subscriberId, request }: NewsletterConfirmationJob): string {
  return `${CONFIRMATION_MAIL}:${subscriberId}:${request}`;
}

const CONFIRMATION_MAIL = 'newsletter-confirmation' satisfies ReceiptMail;

function oweConfirmationMail(job: NewsletterConfirmationJob): Promise<void> {
  return oweMail([
    { id: confirmationMailId(job), job: QUEUE_NAMES.newsletterConfirmation, ...job },
  ]);
}

/** How one request's confirmation mail ended, or null while it is owed. */
export function findConfirmationReceipt(job: NewsletterConfirmationJob): Promise<Receipt | null> {
  return findReceipt(confirmationMailId(job));
}

/*
 * Each request's mail has its own receipt, written once: a mail for an older
 * request, a duplicate job or a late failure never changes the outcome of
 * another, nor the first outcome of its own.
 */

export async function markConfirmationMailSent(job: NewsletterConfirmationJob): Promise<void> {
  await recordReceipt({
    id: confirmationMailId(job),
    mail: CONFIRMATION_MAIL,
    ref: job.subscriberId,
    outcome: 'sent',
  });
}

export async function markConfirmationMailFailed(
  job: NewsletterConfirmationJob,
  reason: string,
): Promise<void> {
  await recordReceipt({
    id: confirmationMailId(job),
    mail: CONFIRMATION_MAIL,
    ref: job.subscriberId,
    outcome: 'failed',
    error: reason,
  });
}

/** The request's mail is settled (sent, failed, or owed no more): its outbox entry goes. */
export function settleConfirmationMail(job: NewsletterConfirmationJob): Promise<void> {
  return settleOwedMail(confirmationMailId(job));
}
