import type { PersonDataExportDto, SubscriberStatus } from '@agency/contracts';
import { forgetMailsOf } from '../mail-outbox/mail-outbox-erasure';
import { SubscriberModel } from './subscriber.model';

const iso = (value: Date | null | undefined): string | null => (value ? value.toISOString() : null);

/** The newsletter subscription of a normalised address, with its consent record, as the data download gives it. */
export async function findSubscriptionOf(
  key: string,
): Promise<PersonDataExportDto['subscription']> {
  const subscriber = await SubscriberModel.findOne({ email: key }).lean();
  if (!subscriber) return null;
  const consent = subscriber.consent;
  return {
    email: subscriber.email,
    status: subscriber.status as SubscriberStatus,
    locale: subscriber.locale,
    createdAt: subscriber.createdAt.toISOString(),
    confirmedAt: iso(subscriber.confirmedAt),
    unsubscribedAt: iso(subscriber.unsubscribedAt),
    unsubscribeMethod: subscriber.unsubscribeMethod ?? null,
    consent: consent
      ? {
          requestedAt: consent.requestedAt.toISOString(),
          ip: consent.ip ?? null,
          locale: consent.locale,
          source: consent.source,
          wordingVersion: consent.wordingVersion,
          confirmedAt: iso(consent.confirmedAt),
          confirmedIp: consent.confirmedIp ?? null,
        }
      : null,
  };
}

/** The language the person last chose for the newsletter, if they subscribed. */
export async function findSubscriberLocaleOf(key: string): Promise<string | null> {
  const subscriber = await SubscriberModel.findOne({ email: key }, { locale: 1 }).lean();
  return subscriber?.locale ?? null;
}

/**
 * Erasing a person: their subscription, and its confirmation mails' outbox
 * entries and receipts. The mails go first: a crash between the two leaves
 * the subscriber, which the step run again finds.
 */
export async function eraseSubscriberOf(key: string): Promise<boolean> {
  const subscriber = await SubscriberModel.findOne({ email: key }, { _id: 1 }).lean();
  if (!subscriber) return false;
  await forgetMailsOf(String(subscriber._id));
  await SubscriberModel.deleteOne({ _id: subscriber._id });
  return true;
}
