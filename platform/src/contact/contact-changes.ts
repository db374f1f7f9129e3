import { isValidObjectId, Types } from 'mongoose';
import type { ContactStatus, Locale, ServiceSlug } from '@agency/contracts';

/** What the views kept beside the contacts (figures, list index) need of one enquiry. */
export interface ContactFacts {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  /** The language of the site the enquiry came from: a campaign's mail is in it. */
  locale: Locale;
  service: ServiceSlug;
  status: ContactStatus;
  createdAt: Date;
  /** Whether the enquiry ticked "send me news" (its document has `consent.requestedAt`). */
  consented: boolean;
}

/**
 * Told of every change once the store has taken it, so the views kept beside
 * the contacts follow at once. A listener never throws: a change it misses
 * (Redis away) is drift, which the scheduled reconciliation repairs.
 */
export interface ContactChanges {
  stored(contact: ContactFacts): Promise<void>;
  /** `contact` carries its new status. */
  statusChanged(contact: ContactFacts, from: ContactStatus): Promise<void>;
  deleted(contact: ContactFacts): Promise<void>;
  /**
   * The enquiry (as it was) lost its personal details to the retention rule
   * and stays, for the figures, without them. A listener that does not say
   * what this means to it is told `deleted`: whatever it kept of the person
   * goes, which is the safe side of a privacy rule.
   */
  anonymised?(contact: ContactFacts): Promise<void>;
}

/** Tells `listener` that an enquiry was anonymised (see ContactChanges.anonymised). */
export function tellAnonymised(listener: ContactChanges, contact: ContactFacts): Promise<void> {
  return listener.anonymised ? listener.anonymised(contact) : listener.deleted(contact);
}

/** Every listener told of each change, side by side. */
export function allContactChanges(...listeners: ContactChanges[]): ContactChanges {
  return {
    async stored(contact) {
      await Promise.all(listeners.map((listener) => listener.stored(contact)));
    },
    async statusChanged(contact, from) {
      await Promise.all(listeners.map((listener) => listener.statusChanged(contact, from)));
    },
    async deleted(contact) {
      await Promise.all(listeners.map((listener) => listener.deleted(contact)));
    },
    async anonymised(contact) {
      await Promise.all(listeners.map((listener) => tellAnonymised(listener, contact)));
    },
  };
}

/** For callers that keep no views (scripts, tests of the store alone). */
export const UNWATCHED_CONTACTS: ContactChanges = {
  stored: () => Promise.resolve(),
  statusChanged: () => Promise.resolve(),
  deleted: () => Promise.resolve(),
  anonymised: () => Promise.resolve(),
};

/**
 * When an enquiry was stored. One written without its timestamps (a bulk
 * import that skipped them) is dated by its id, which carries its creation
 * second, so that it is still counted on a day and placed in the list.
 */
function storedAt(id: unknown, createdAt: Date | null | undefined): Date {
  if (createdAt) return createdAt;
  return isValidObjectId(id) ? new Types.ObjectId(String(id)).getTimestamp() : new Date(0);
}

/** The facts of a stored (lean) contact. */
export function contactFactsOf(contact: {
  _id: unknown;
  firstName: string;
  lastName: string;
  email: string;
  locale: string;
  service: string;
  status: string;
  createdAt?: Date | null;
  consent?: { requestedAt?: Date | null } | null;
}): ContactFacts {
  return {
    id: String(contact._id),
    firstName: contact.firstName,
    lastName: contact.lastName,
    email: contact.email,
    locale: contact.locale as Locale,
    service: contact.service as ServiceSlug,
    status: contact.status as ContactStatus,
    createdAt: storedAt(contact._id, contact.createdAt),
    consented: Boolean(contact.consent?.requestedAt),
  };
}
