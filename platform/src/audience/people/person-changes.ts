import type { ContactChanges, ContactFacts } from '../../contact/contact-changes';
import { normalizeEmail } from '../../mail/email-address';
import type { SubscriberChanges } from '../../newsletter/subscriber-changes';
import { refreshPeopleAfterWrite } from './person-refresh';

const refreshAddressOf = (contact: ContactFacts) =>
  refreshPeopleAfterWrite([normalizeEmail(contact.email)]);

/** The people view follows every enquiry stored, changed or deleted (wired where the contacts' views are). */
export const peopleContactChanges: ContactChanges = {
  stored: refreshAddressOf,
  statusChanged: refreshAddressOf,
  deleted: refreshAddressOf,
};

/** The people view follows every change of a subscription. */
export const peopleSubscriberChanges: SubscriberChanges = {
  statusChanged: (email) => refreshPeopleAfterWrite([normalizeEmail(email)]),
};

/** Every listener told of each subscription change, side by side. */
export function allSubscriberChanges(...listeners: SubscriberChanges[]): SubscriberChanges {
  return {
    async statusChanged(email, from, to) {
      await Promise.all(listeners.map((listener) => listener.statusChanged(email, from, to)));
    },
  };
}
