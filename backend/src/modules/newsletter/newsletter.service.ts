import { isValidObjectId, trusted } from 'mongoose';
import {
  NEWSLETTER_CONFIRMATION_TTL_MS,
  NEWSLETTER_CONSENT_WORDING_VERSION,
  type Locale,
  type NewsletterConfirmationJob,
  type NewsletterSource,
} from '@agency/contracts';
import {
  SubscriberModel,
  isDuplicateKeyError,
  normalizeEmail,
  oweConfirmationMail,
  verifyConfirmationToken,
  verifyUnsubscribeToken,
  type SubscriberDocument,
  type UnsubscribeMethod,
} from '@agency/platform';

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
