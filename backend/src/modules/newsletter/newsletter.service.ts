import { isValidObjectId } from 'mongoose';
import { NEWSLETTER_CONFIRMATION_TTL_MS, type Locale } from '@agency/contracts';
import {
  SubscriberModel,
  liftUnsubscribeSuppression,
  markUnsubscribed,
  oneWriterPerDocument,
  type SubscriberChanges,
  verifyConfirmationToken,
  verifyUnsubscribeToken,
  type SubscriberDocument,
  type UnsubscribeMethod,
} from '@agency/platform';

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
  {
    secret,
    ip,
    now = new Date(),
    changes,
  }: { secret: string; ip: string; now?: Date; changes: SubscriberChanges },
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
  const confirmed = await oneWriterPerDocument(`subscriber:${subscriber.email}`, async () => {
    const written = await SubscriberModel.findOneAndUpdate(
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
    if (written) await changes.statusChanged(written.email, 'pending', 'confirmed');
    return written;
  });
  if (confirmed) {
    // Asked for and confirmed again: leaving once no longer holds the address back.
    await liftUnsubscribeSuppression(confirmed.email);
    return { outcome: 'confirmed', locale: confirmed.locale as Locale };
  }
  // A twin click confirmed it in between (fine), or an unsubscribe (too late).
  const current = await findSubscriber(claims.subscriberId);
  return current?.status === 'confirmed'
    ? { outcome: 'confirmed', locale: current.locale as Locale }
    : { outcome: 'expired' };
}

export type UnsubscribeOutcome =
  { outcome: 'unsubscribed'; locale: Locale } | { outcome: 'invalid' };

/**
 * Takes the address a link names off the list at once, and onto the
 * suppression list. Unsubscribing twice is harmless; an address the agency
 * mailed without a subscription is recorded as unsubscribed too.
 */
export async function unsubscribe(
  token: string,
  {
    secret,
    method,
    now = new Date(),
    changes,
  }: { secret: string; method: UnsubscribeMethod; now?: Date; changes: SubscriberChanges },
): Promise<UnsubscribeOutcome> {
  const email = verifyUnsubscribeToken(token, secret);
  if (!email) return { outcome: 'invalid' };
  return { outcome: 'unsubscribed', locale: await markUnsubscribed(email, method, changes, now) };
}
