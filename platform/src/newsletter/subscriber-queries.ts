import type { Locale, SubscriberStatus } from '@agency/contracts';
import { SubscriberModel, type SubscriberDocument } from './subscriber.model';

/** A subscription as the confirmation answers from: who, in which state and language. */
export interface SubscriberState {
  id: string;
  email: string;
  status: SubscriberStatus;
  locale: Locale;
}

export function subscriberStateOf(subscriber: SubscriberDocument): SubscriberState {
  return {
    id: String(subscriber._id),
    email: subscriber.email,
    status: subscriber.status as SubscriberStatus,
    locale: subscriber.locale as Locale,
  };
}

/** Whether the address left the newsletter: no campaign mail may reach it. */
export async function hasUnsubscribed(key: string): Promise<boolean> {
  return Boolean(await SubscriberModel.exists({ email: key, status: 'unsubscribed' }));
}
