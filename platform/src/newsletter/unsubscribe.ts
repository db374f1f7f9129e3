import { trusted } from 'mongoose';
import { DEFAULT_LOCALE, type Locale, type SubscriberStatus } from '@agency/contracts';
import { isDuplicateKeyError } from '../database-errors';
import { oneWriterPerDocument } from '../embedded-store';
import type { SubscriberChanges } from './subscriber-changes';
import { UPSERT_READING_BEFORE } from './subscription-request';
import { suppressAddress } from '../audience/suppression.service';
import { normalizeEmail } from '../mail/email-address';
import { SubscriberModel, type UnsubscribeMethod } from './subscriber.model';

/**
 * Takes an address off the newsletter at once and onto the suppression list.
 * Unsubscribing twice is harmless; an address the agency mailed without a
 * subscription (a campaign to contacts or a list) is recorded as
 * unsubscribed so it stays excluded. Answers the language it subscribed in.
 */
export async function markUnsubscribed(
  email: string,
  method: UnsubscribeMethod,
  changes: SubscriberChanges,
  now = new Date(),
): Promise<Locale> {
  const key = normalizeEmail(email);
  const locale = await oneWriterPerDocument(`subscriber:${key}`, async () => {
    try {
      const written = await SubscriberModel.findOneAndUpdate(
        { email: key, status: trusted({ $ne: 'unsubscribed' }) },
        { $set: { status: 'unsubscribed', unsubscribedAt: now, unsubscribeMethod: method } },
        UPSERT_READING_BEFORE,
      ).exec();
      const before = written.value;
      // The dashboard's figures and audiences follow the address out.
      await changes.statusChanged(
        key,
        (before?.status as SubscriberStatus | undefined) ?? null,
        'unsubscribed',
      );
      return (before?.locale as Locale | undefined) ?? DEFAULT_LOCALE;
    } catch (error: unknown) {
      if (!isDuplicateKeyError(error)) throw error;
      // Already unsubscribed: the upsert met the existing record.
      const existing = await SubscriberModel.findOne({ email: key }).exec();
      return (existing?.locale ?? DEFAULT_LOCALE) as Locale;
    }
  });
  if (method !== 'complaint') {
    await suppressAddress({ email, reason: 'unsubscribe', source: 'unsubscribe-link', at: now });
  }
  return locale;
}
