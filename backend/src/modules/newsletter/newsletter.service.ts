import { NEWSLETTER_CONFIRMATION_TTL_MS, type Locale } from '@agency/contracts';
import {
  confirmPendingSubscriber,
  findSubscriberById,
  liftUnsubscribeSuppression,
  markUnsubscribed,
  type SubscriberChanges,
  verifyConfirmationToken,
  verifyUnsubscribeToken,
  type UnsubscribeMethod,
} from '@agency/platform';

export type ConfirmOutcome =
  { outcome: 'confirmed'; locale: Locale } | { outcome: 'expired' } | { outcome: 'invalid' };

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
  const subscriber = await findSubscriberById(claims.subscriberId);
  if (!subscriber) return { outcome: 'invalid' };
  if (subscriber.status === 'confirmed') {
    return { outcome: 'confirmed', locale: subscriber.locale as Locale };
  }
  const age = now.getTime() - claims.issuedAt.getTime();
  if (subscriber.status !== 'pending' || age > NEWSLETTER_CONFIRMATION_TTL_MS) {
    return { outcome: 'expired' };
  }
  const confirmed = await confirmPendingSubscriber(subscriber, { ip, now }, changes);
  if (confirmed) {
    // Asked for and confirmed again: leaving once no longer holds the address back.
    await liftUnsubscribeSuppression(confirmed.email);
    return { outcome: 'confirmed', locale: confirmed.locale };
  }
  // A twin click confirmed it in between (fine), or an unsubscribe (too late).
  const current = await findSubscriberById(claims.subscriberId);
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
