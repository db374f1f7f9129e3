import {
  DEFAULT_LOCALE,
  type LastMailOutcome,
  type Locale,
  type PersonConsentState,
  type PersonSource,
  type ServiceSlug,
  type SubscriberStatus,
} from '@agency/contracts';
import type { ContactFacts } from '../../contact/contact-changes';
import { contactSearchKeys } from '../../contact/contact-search';
import type { AddressRecords } from './person-records';
import type { StoredPerson } from './person.model';

/** One record as the person's fields are chosen from: the latest written speaks for the address. */
interface Written {
  email: string;
  firstName?: string;
  lastName?: string;
  locale?: string;
  createdAt: Date;
  updatedAt: Date;
}

function writtenRecords({ enquiries, subscriber, members }: AddressRecords): Written[] {
  const records: Written[] = enquiries.map((enquiry) => ({ ...enquiry }));
  if (subscriber) {
    const createdAt = subscriber.createdAt ?? new Date(0);
    records.push({
      email: subscriber.email,
      locale: subscriber.locale,
      createdAt,
      updatedAt: subscriber.updatedAt ?? createdAt,
    });
  }
  for (const member of members) {
    const createdAt = member.createdAt ?? member.consent.at;
    records.push({ ...member, createdAt, updatedAt: member.updatedAt ?? createdAt });
  }
  return records.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
}

function sourcesOf({ enquiries, subscriber, members }: AddressRecords): PersonSource[] {
  const sources: PersonSource[] = [];
  if (enquiries.length > 0) sources.push('contact');
  if (subscriber) sources.push('subscriber');
  if (members.length > 0) sources.push('list');
  return sources;
}

function latest(dates: readonly (Date | null | undefined)[]): Date | null {
  const times = dates.flatMap((date) => (date ? [date.getTime()] : []));
  return times.length > 0 ? new Date(Math.max(...times)) : null;
}

/**
 * Consent is `given` by a confirmed subscription, a list membership (its
 * basis is recorded) or an enquiry whose sender ticked the box; `withdrawn`
 * by unsubscribing. The later of the two wins: an address that unsubscribed
 * after an import put it in a list has withdrawn (no campaign mails it), and
 * one that ticked the box on a later enquiry has given it again.
 */
export function consentOf({ enquiries, subscriber, members }: AddressRecords): PersonConsentState {
  const givenAt = latest([
    subscriber?.status === 'confirmed'
      ? (subscriber.consent?.confirmedAt ?? subscriber.confirmedAt ?? new Date(0))
      : null,
    ...members.map(({ consent }) => consent.at),
    ...enquiries.map(({ consentRequestedAt }) => consentRequestedAt),
  ]);
  const withdrawnAt =
    subscriber?.status === 'unsubscribed' ? (subscriber.unsubscribedAt ?? new Date(0)) : null;
  if (givenAt && (!withdrawnAt || givenAt > withdrawnAt)) return 'given';
  return withdrawnAt ? 'withdrawn' : 'none';
}

function sortedUnique(values: Iterable<string>): string[] {
  return [...new Set(values)].sort();
}

/** "sales@eu.acme.tn" is at eu.acme.tn and acme.tn: a search for either domain finds it. */
function domainsOf(key: string): string[] {
  const labels = key
    .slice(key.lastIndexOf('@') + 1)
    .split('.')
    .filter(Boolean);
  const domains = labels.map((_label, index) => labels.slice(index).join('.'));
  return labels.length > 1 ? domains.slice(0, -1) : domains;
}

/**
 * The bounce or complaint that put the address on the suppression list (it
 * keeps the first reason); `none` otherwise, an unsubscription or a staff
 * suppression included. The mail events refresh the person when they write one.
 */
function lastMailOutcomeOf({ suppression }: AddressRecords): LastMailOutcome {
  if (suppression?.reason === 'hard-bounce' || suppression?.reason === 'soft-bounce') {
    return 'bounced';
  }
  return suppression?.reason === 'complaint' ? 'complained' : 'none';
}

/** The person an address's records make, or null when none holds it any more. */
export function personOfRecords(key: string, records: AddressRecords): StoredPerson | null {
  const written = writtenRecords(records);
  const newest = written[0];
  if (!newest) return null;
  const named = written.find(({ firstName, lastName }) => firstName || lastName);
  const firstName = named?.firstName ?? '';
  const lastName = named?.lastName ?? '';
  const { subscriber, suppression, members } = records;
  return {
    _id: key,
    email: newest.email.trim(),
    firstName,
    lastName,
    locale: (subscriber?.locale ?? newest.locale ?? DEFAULT_LOCALE) as Locale,
    sources: sourcesOf(records),
    listIds: sortedUnique(members.map(({ list }) => String(list))),
    tags: sortedUnique(members.flatMap(({ tags }) => tags ?? [])),
    consent: consentOf(records),
    subscriberStatus: (subscriber?.status as SubscriberStatus | undefined) ?? null,
    suppressed: Boolean(suppression),
    firstSeenAt: new Date(Math.min(...written.map(({ createdAt }) => createdAt.getTime()))),
    lastSeenAt: latest([newest.updatedAt, suppression?.updatedAt ?? suppression?.at]) as Date,
    domains: domainsOf(key),
    searchTerms: contactSearchKeys({ firstName, lastName, email: key }).searchTerms,
    services: sortedUnique(records.enquiries.map(({ service }) => service)) as ServiceSlug[],
    lastMailOutcome: lastMailOutcomeOf(records),
  };
}

/**
 * The person once one more enquiry of its address is stored, from the person
 * alone, or null when the person does not say enough and its records must
 * be read again. The enquiry is the address's newest record when it is no
 * older than the person's last sighting (which is never older than its
 * newest record): then it speaks for the address (`personOfRecords` orders
 * the written records by `updatedAt`, an enquiry first on a tie), and what
 * else it changes only grows (first sighting, services, sources). A ticked
 * box after an unsubscription gives consent only if it came after it, a
 * date the person does not keep: that case is read again.
 */
export function personWithEnquiry(
  person: StoredPerson,
  enquiry: ContactFacts,
): StoredPerson | null {
  const at = enquiry.createdAt;
  if (at.getTime() < person.lastSeenAt.getTime()) return null;
  if (enquiry.consented && person.consent === 'withdrawn') return null;
  const named = Boolean(enquiry.firstName || enquiry.lastName);
  const firstName = named ? enquiry.firstName : person.firstName;
  const lastName = named ? enquiry.lastName : person.lastName;
  return {
    ...person,
    email: enquiry.email.trim(),
    firstName,
    lastName,
    locale: person.subscriberStatus ? person.locale : enquiry.locale,
    sources: person.sources.includes('contact') ? person.sources : ['contact', ...person.sources],
    consent: enquiry.consented ? 'given' : person.consent,
    firstSeenAt: at < person.firstSeenAt ? at : person.firstSeenAt,
    lastSeenAt: at,
    searchTerms: contactSearchKeys({ firstName, lastName, email: person._id }).searchTerms,
    services: sortedUnique([...person.services, enquiry.service]) as ServiceSlug[],
  };
}
