import { DEFAULT_LOCALE, isLocale } from '@agency/contracts';
import { joinPublicList } from '../audience/list-member-commands';
import { refreshPeopleAfterWrite } from '../audience/people/person-refresh';
import { normalizeEmail } from '../mail/email-address';
import type { SubscriberDocument } from './subscriber.model';

/**
 * Joins the public lists a subscriber chose with their request, once its
 * confirmation click confirmed it: the one mail confirms the subscription
 * and every list. A list made private or deleted since the request is
 * skipped; a list they are in already stays as it is. Answers how many
 * lists they joined.
 */
export async function joinListsChosenOnSignUp(
  subscriber: Pick<SubscriberDocument, 'email' | 'locale' | 'consent'>,
  at: Date,
): Promise<number> {
  const listIds = subscriber.consent?.listIds ?? [];
  if (listIds.length === 0) return 0;
  const locale = isLocale(subscriber.locale) ? subscriber.locale : DEFAULT_LOCALE;
  const join = { email: subscriber.email, locale, at };
  let joined = 0;
  for (const listId of listIds) {
    if ((await joinPublicList(listId, join, { refreshPeople: false })) === 'joined') joined += 1;
  }
  // One refresh of the person for every list joined.
  await refreshPeopleAfterWrite([normalizeEmail(subscriber.email)]);
  return joined;
}
