import { trusted } from 'mongoose';
import type { Locale } from '@agency/contracts';
import { isDuplicateKeyError } from '../database-errors';
import { suppressAddress } from '../audience/suppression.service';
import { normalizeEmail } from './newsletter-token';
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
  now = new Date(),
): Promise<Locale> {
  const key = normalizeEmail(email);
  let locale: Locale;
  try {
    const subscriber = await SubscriberModel.findOneAndUpdate(
      { email: key, status: trusted({ $ne: 'unsubscribed' }) },
      { $set: { status: 'unsubscribed', unsubscribedAt: now, unsubscribeMethod: method } },
      { upsert: true, returnDocument: 'after', runValidators: true },
    ).exec();
    locale = subscriber.locale as Locale;
  } catch (error: unknown) {
    if (!isDuplicateKeyError(error)) throw error;
    // Already unsubscribed: the upsert met the existing record.
    const existing = await SubscriberModel.findOne({ email: key }).exec();
    locale = (existing?.locale ?? 'en') as Locale;
  }
  if (method !== 'complaint') {
    await suppressAddress({ email, reason: 'unsubscribe', source: 'unsubscribe-link', at: now });
  }
  return locale;
}
