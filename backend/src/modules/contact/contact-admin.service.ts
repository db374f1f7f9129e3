import type { Readable } from 'node:stream';
import { trusted } from 'mongoose';
import type {
  ContactDetailDto,
  ContactListQuery,
  ContactStatus,
  ContactDto,
  Page,
} from '@agency/contracts';
import { HttpError } from '../../errors';
import {
  equalityFilter,
  isoOrNull,
  pageOf,
  searchFilter,
  sortOf,
  findPage,
} from '../../list-query';
import { ContactModel, type Contact } from './contact.model';
import { toContactDto } from './contact.service';

/** What staff see of contacts; the public module only stores them. */
type StoredContact = Contact & { _id: unknown };

function toDetailDto(contact: StoredContact): ContactDetailDto {
  return {
    ...toContactDto(contact),
    mailSentAt: isoOrNull(contact.mailSentAt),
    mailError: contact.mailError ?? null,
    updatedAt: contact.updatedAt.toISOString(),
  };
}

const SEARCH_FIELDS = ['firstName', 'lastName', 'email'] as const;

function filterOf(query: ContactListQuery): Record<string, unknown> {
  return {
    ...equalityFilter(query, ['status', 'service', 'mailState']),
    ...searchFilter(query.search, SEARCH_FIELDS),
  };
}

export async function listContacts(query: ContactListQuery): Promise<Page<ContactDto>> {
  const filter = filterOf(query);
  const { docs: contacts, total } = await findPage(ContactModel, filter, query);
  return pageOf(contacts.map(toContactDto), total, query);
}

export async function getContactDetail(id: string): Promise<ContactDetailDto> {
  const contact = await ContactModel.findById(id).lean();
  if (!contact) throw new HttpError('NOT_FOUND', 'No contact with this id');
  return toDetailDto(contact);
}

export async function setContactStatus(
  id: string,
  status: ContactStatus,
): Promise<ContactDetailDto> {
  const contact = await ContactModel.findByIdAndUpdate(
    id,
    { $set: { status } },
    { returnDocument: 'after', runValidators: true },
  ).lean();
  if (!contact) throw new HttpError('NOT_FOUND', 'No contact with this id');
  return toDetailDto(contact);
}

/**
 * Every contact matching the list's filters, in the list's order, read in
 * batches: memory stays flat however many rows an export holds.
 */
export function contactCursor(query: ContactListQuery): Readable {
  return ContactModel.find(filterOf(query))
    .sort(sortOf(query.sort))
    .lean()
    .cursor({ batchSize: 500, transform: (contact: StoredContact) => toDetailDto(contact) });
}

export interface ContactCounts {
  total: number;
  since: number[];
  byService: { service: string; count: number }[];
}

/** The dashboard's contact figures: all, since each given instant, and per service. */
export async function countContacts(since: readonly Date[]): Promise<ContactCounts> {
  const [total, sinceCounts, byService] = await Promise.all([
    ContactModel.countDocuments({}),
    Promise.all(
      since.map((instant) =>
        ContactModel.countDocuments({ createdAt: trusted({ $gte: instant }) }),
      ),
    ),
    ContactModel.aggregate<{ _id: string; count: number }>([
      { $group: { _id: '$service', count: { $sum: 1 } } },
    ]),
  ]);
  return {
    total,
    since: sinceCounts,
    byService: byService.map(({ _id, count }) => ({ service: _id, count })),
  };
}

/**
 * When each contact since `since` arrived: only that field is read, for the
 * dashboard's enquiries-per-day chart (which groups them by local day).
 */
export async function contactArrivalTimes(since: Date): Promise<Date[]> {
  const contacts = await ContactModel.find({ createdAt: trusted({ $gte: since }) })
    .select({ createdAt: 1, _id: 0 })
    .lean();
  return contacts.map((contact) => contact.createdAt);
}

/** Every address that sent an enquiry, lower-cased, once each. */
export async function distinctContactEmails(): Promise<Set<string>> {
  const emails: unknown[] = await ContactModel.distinct('email');
  return new Set(emails.filter((email) => typeof email === 'string').map(lowerCase));
}

function lowerCase(text: string): string {
  return text.toLowerCase();
}
