import type { ContactListQuery, TotalKind } from '@agency/contracts';
import {
  countUpTo,
  equalityFilter,
  findKeysetPage,
  prefixFilter,
  sortFieldOf,
  type KeysetWindow,
  type SortField,
} from '../list-pages';
import { contactIdFilterForMailState } from './contact-mail-state';
import { contactSearchQuery } from './contact-search';
import { ContactModel, type Contact } from './contact.model';

/** An enquiry as stored, as plain data: what staff see of it. */
export type StoredContact = Contact & { _id: unknown };

/** The list's sort keys and the stored fields that order them (an index each). */
export const CONTACT_SORTS: Readonly<Record<string, SortField>> = {
  createdAt: { field: 'createdAt', kind: 'date' },
  lastName: { field: 'lastNameKey', kind: 'text' },
  email: { field: 'email', kind: 'text' },
  status: { field: 'status', kind: 'text' },
};

async function contactListFilter(query: ContactListQuery): Promise<Record<string, unknown>> {
  const search = query.search ? contactSearchQuery(query.search) : '';
  return {
    ...equalityFilter(query, ['status', 'service']),
    ...(search ? prefixFilter('searchTerms', search) : {}),
    // The mail state lives in the outbox and the receipts: it narrows the `_id`s.
    ...(query.mailState ? await contactIdFilterForMailState(query.mailState) : {}),
  };
}

export async function findContactById(id: string): Promise<StoredContact | null> {
  return ContactModel.findById(id).lean();
}

/** The enquiries with these ids, in their order, each read by its `_id`. */
export async function findContactsByIds(ids: readonly string[]): Promise<StoredContact[]> {
  const found = await Promise.all(ids.map((id) => ContactModel.findById(id).lean<StoredContact>()));
  // A row deleted between the caller's read of its id and its own read is left out.
  return found.filter((contact): contact is StoredContact => contact !== null);
}

/** One keyset page of the contacts list, from the store's indexes. */
export async function findContactsPage(
  query: ContactListQuery,
): Promise<KeysetWindow<StoredContact>> {
  return findKeysetPage(ContactModel, await contactListFilter(query), query, CONTACT_SORTS);
}

/** How many enquiries the list's filters match, counting no further than `cap`. */
export async function countContactsUpTo(
  query: ContactListQuery,
  cap: number,
): Promise<{ total: number; totalKind: TotalKind }> {
  return countUpTo(ContactModel, await contactListFilter(query), cap);
}

/**
 * Every enquiry the list's filters match, in the list's order, read in
 * batches: memory stays flat however many rows an export holds.
 */
export async function openContactsInListOrder(
  query: ContactListQuery,
): Promise<AsyncIterable<StoredContact>> {
  const filter = await contactListFilter(query);
  const { field, direction } = sortFieldOf(query.sort, CONTACT_SORTS);
  return ContactModel.find(filter)
    .sort({ [field]: direction, _id: direction })
    .lean<StoredContact[]>()
    .cursor({ batchSize: 500 });
}
