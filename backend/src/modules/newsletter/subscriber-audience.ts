import type { SubscriberStatus } from '@agency/contracts';
import { SubscriberModel } from '@agency/platform';

/** The (lower-cased, unique) addresses of the subscribers in one status. */
export async function subscriberEmails(status: SubscriberStatus): Promise<Set<string>> {
  const emails: unknown[] = await SubscriberModel.distinct('email', { status });
  return new Set(emails.filter((email): email is string => typeof email === 'string'));
}
