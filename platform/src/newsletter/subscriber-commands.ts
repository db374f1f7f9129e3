import type { Locale } from '@agency/contracts';
import { refreshPeopleAfterWrite } from '../audience/people/person-refresh';
import { normalizeEmail } from '../mail/email-address';
import { oneWriterPerDocument } from '../embedded-store';
import type { SubscriberChanges } from './subscriber-changes';
import { SubscriberModel, type SubscriberDocument } from './subscriber.model';
import { subscriberStateOf, type SubscriberState } from './subscriber-queries';

/**
 * pending -> confirmed, with the consent record completed by the click (when
 * and from where). Null when the subscription was no longer pending: a twin
 * click confirmed it in between, or the address left.
 */
export async function confirmPendingSubscriber(
  subscriber: Pick<SubscriberDocument, '_id' | 'email'>,
  click: { ip: string; now: Date },
  changes: SubscriberChanges,
): Promise<SubscriberState | null> {
  return oneWriterPerDocument(`subscriber:${subscriber.email}`, async () => {
    const written = await SubscriberModel.findOneAndUpdate(
      { _id: subscriber._id, status: 'pending' },
      {
        $set: {
          status: 'confirmed',
          confirmedAt: click.now,
          'consent.confirmedAt': click.now,
          'consent.confirmedIp': click.ip,
        },
      },
      { returnDocument: 'after' },
    ).exec();
    if (written) await changes.statusChanged(written.email, 'pending', 'confirmed');
    return written ? subscriberStateOf(written) : null;
  });
}

/** The language the newsletter writes to an address in; nothing when it never subscribed. */
export async function setSubscriberLanguage(email: string, locale: Locale): Promise<void> {
  const key = normalizeEmail(email);
  await SubscriberModel.updateOne({ email: key }, { $set: { locale } });
  await refreshPeopleAfterWrite([key]);
}
