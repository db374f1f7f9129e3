import { NEWSLETTER_CONFIRMATION_TTL_MS, type Locale } from '@agency/contracts';
import {
  confirmPendingSubscriber,
  findSubscriberById,
  joinListsChosenOnSignUp,
  liftUnsubscribeSuppression,
  markUnsubscribed,
  type SubscriberChanges,
  verifyConfirmationToken,
  verifyUnsubscribeLink,
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
    // Only the click that confirmed joins the lists: a later click must not
    // bring back a list the person has left since.
    await joinListsChosenOnSignUp(subscriber, now);
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

export interface UnsubscribeOptions {
  secret: string;
  method: UnsubscribeMethod;
  now?: Date;
  changes: SubscriberChanges;
  /** Counts a recipient who left through a campaign's mail in its report. */
  countForCampaign?: (campaignId: string) => Promise<void>;
}

/**
 * Takes the address a link names off the list at once, and onto the
 * suppression list. Unsubscribing twice is harmless; an address the agency
 * mailed without a subscription is recorded as unsubscribed too. A link from
 * a campaign's mail counts in that campaign's report when it took the
 * address off: once per recipient, however often it is followed.
 */
export async function unsubscribe(
  token: string,
  { secret, method, now = new Date(), changes, countForCampaign }: UnsubscribeOptions,
): Promise<UnsubscribeOutcome> {
  const claims = verifyUnsubscribeLink(token, secret);
  if (!claims) return { outcome: 'invalid' };
  const { locale, left } = await markUnsubscribed(claims.email, method, changes, now);
  if (left && claims.campaignId !== null) await countForCampaign?.(claims.campaignId);
  return { outcome: 'unsubscribed', locale };
}
