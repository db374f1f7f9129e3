import { trusted } from 'mongoose';
import { DEFAULT_LOCALE, type Locale, type SubscriberStatus } from '@agency/contracts';
import { isDuplicateKeyError } from '../database-errors';
import { oneWriterPerDocument } from '../embedded-store';
import type { SubscriberChanges } from './subscriber-changes';
import { UPSERT_READING_BEFORE } from './subscription-request';
import { suppressAddress } from '../audience/suppression.service';
import { normalizeEmail } from '../mail/email-address';
import { SubscriberModel, type UnsubscribeMethod } from './subscriber.model';

export interface Unsubscribed {
  /** The language it subscribed in. */
  locale: Locale;
  /** This call took the address off (it was not unsubscribed already): what a campaign counts. */
  left: boolean;
}

/**
 * Takes an address off the newsletter at once and onto the suppression list.
 * Unsubscribing twice is harmless; an address the agency mailed without a
 * subscription (a campaign to contacts or a list) is recorded as
 * unsubscribed so it stays excluded.
 */
export async function markUnsubscribed(
  email: string,
  method: UnsubscribeMethod,
  changes: SubscriberChanges,
  now = new Date(),
): Promise<Unsubscribed> {
  const key = normalizeEmail(email);
  const result = await oneWriterPerDocument(
    `subscriber:${key}`,
    async (): Promise<Unsubscribed> => {
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
        return { locale: (before?.locale as Locale | undefined) ?? DEFAULT_LOCALE, left: true };
      } catch (error: unknown) {
        if (!isDuplicateKeyError(error)) throw error;
        // Already unsubscribed: the upsert met the existing record.
        const existing = await SubscriberModel.findOne({ email: key }).exec();
        return { locale: (existing?.locale ?? DEFAULT_LOCALE) as Locale, left: false };
      }
    },
  );
  if (method !== 'complaint') {
    await suppressAddress({ email, reason: 'unsubscribe', source: 'unsubscribe-link', at: now });
  }
  return result;
}
