import type { ContactChanges, ContactFacts } from '../../contact/contact-changes';
import { normalizeEmail } from '../../mail/email-address';
import type { SubscriberChanges } from '../../newsletter/subscriber-changes';
import { refreshPeopleAfterWrite } from './person-refresh';

/** How a listener has the people of changed addresses recomputed. */
export interface PeopleRefresher {
  mark(keys: Iterable<string>): Promise<void>;
  /** Takes an enquiry just stored with its facts (which spares the refresh a read of them); else `mark`. */
  enquiryStored?(enquiry: ContactFacts): Promise<void>;
}

/** Recomputes them before the write's caller goes on: for the worker's own batch jobs. */
export const PEOPLE_REFRESHED_AT_ONCE: PeopleRefresher = { mark: refreshPeopleAfterWrite };

/** The people view follows every enquiry stored, changed or deleted (wired where the contacts' views are). */
export function peopleContactChanges(people: PeopleRefresher): ContactChanges {
  const refreshAddressOf = (contact: ContactFacts) => people.mark([normalizeEmail(contact.email)]);
  return {
    stored: (contact) =>
      people.enquiryStored ? people.enquiryStored(contact) : refreshAddressOf(contact),
    statusChanged: refreshAddressOf,
    deleted: refreshAddressOf,
  };
}

/** The people view follows every change of a subscription. */
export function peopleSubscriberChanges(people: PeopleRefresher): SubscriberChanges {
  return { statusChanged: (email) => people.mark([normalizeEmail(email)]) };
}

/** Every listener told of each subscription change, side by side. */
export function allSubscriberChanges(...listeners: SubscriberChanges[]): SubscriberChanges {
  return {
    async statusChanged(email, from, to) {
      await Promise.all(listeners.map((listener) => listener.statusChanged(email, from, to)));
    },
  };
}
