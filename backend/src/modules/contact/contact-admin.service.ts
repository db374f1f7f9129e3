import { Readable } from 'node:stream';
import type {
  ContactDetailDto,
  ContactDto,
  ContactListQuery,
  ContactStatus,
  KeysetPage,
  TotalKind,
} from '@agency/contracts';
import {
  ContactModel,
  contactFactsOf,
  contactIdFilterForMailState,
  contactMailStatuses,
  contactMailStatesInBulk,
  forgetContactMails,
  oneWriterPerDocument,
  contactSearchQuery,
  type Contact,
  type ContactChanges,
  type ContactMailStatuses,
  type ContactTotals,
  countUpTo,
  equalityFilter,
  findKeysetPage,
  isoOrNull,
  keysetPageOf,
  prefixFilter,
  sortFieldOf,
  type SortField,
} from '@agency/platform';
import { HttpError } from '../../errors';
import { toContactDto } from './contact.service';
import type { ContactListIndex } from './contact-list-index';

/** What staff see of contacts; the public module only stores them. */
type StoredContact = Contact & { _id: unknown };

/** The list's sort keys and the stored fields that order them (an index each). */
export const CONTACT_SORTS: Readonly<Record<string, SortField>> = {
  createdAt: { field: 'createdAt', kind: 'date' },
  lastName: { field: 'lastNameKey', kind: 'text' },
  email: { field: 'email', kind: 'text' },
  status: { field: 'status', kind: 'text' },
};

/** A count of a search or a mail-state filter stops here and says "N+". */
export const CONTACT_COUNT_CAP = 1000;

/** What the contacts list reads besides the store, and what each change must reach. */
export interface ContactViews {
  changes: ContactChanges;
  totals: ContactTotals;
  index: ContactListIndex;
}

function toDetailDto(contact: StoredContact, mails: ContactMailStatuses): ContactDetailDto {
  return {
    ...toContactDto(contact, mails),
    mailSentAt: mails.notification.state === 'sent' ? isoOrNull(mails.notification.at) : null,
    mailError: mails.notification.error ?? null,
    updatedAt: contact.updatedAt.toISOString(),
  };
}

async function detailOf(contact: StoredContact): Promise<ContactDetailDto> {
  return toDetailDto(contact, await contactMailStatuses(String(contact._id)));
}

async function filterOf(query: ContactListQuery, search: string): Promise<Record<string, unknown>> {
  return {
    ...equalityFilter(query, ['status', 'service']),
    ...(search ? prefixFilter('searchTerms', search) : {}),
    // The mail state lives in the outbox and the receipts: it narrows the `_id`s.
    ...(query.mailState ? await contactIdFilterForMailState(query.mailState) : {}),
  };
}

async function withMailStates(contacts: StoredContact[]): Promise<ContactDto[]> {
  return Promise.all(
    contacts.map(async (contact) =>
      toContactDto(contact, await contactMailStatuses(String(contact._id))),
    ),
  );
}

/**
 * The list's total: from the kept figures when only status and service
 * filter it, otherwise counted up to CONTACT_COUNT_CAP ("1000+").
 */
async function totalOf(
  query: ContactListQuery,
  filter: () => Promise<Record<string, unknown>>,
  totals: ContactTotals,
): Promise<{ total: number; totalKind: TotalKind }> {
  if (!query.search && !query.mailState) {
    const kept = await totals.count({ status: query.status, service: query.service });
    if (kept !== undefined) return { total: kept, totalKind: 'exact' };
  }
  return countUpTo(ContactModel, await filter(), CONTACT_COUNT_CAP);
}

/**
 * One keyset page of enquiries. MongoDB serves every order, filter and the
 * prefix search from its indexes; on the embedded store the index in Redis
 * answers what it keeps, and the page's rows are read by `_id`.
 */
export async function listContacts(
  query: ContactListQuery,
  { totals, index }: Pick<ContactViews, 'totals' | 'index'>,
): Promise<KeysetPage<ContactDto>> {
  const search = query.search ? contactSearchQuery(query.search) : '';
  const filter = () => filterOf(query, search);
  const indexed = await index.page(query, search);
  if (indexed) {
    const [found, total] = await Promise.all([
      Promise.all(indexed.ids.map((id) => ContactModel.findById(id).lean<StoredContact>())),
      indexed.total ?? totalOf(query, filter, totals),
    ]);
    // A row deleted between the index read and its own read is left out.
    const contacts = found.filter((contact): contact is StoredContact => contact !== null);
    return keysetPageOf(await withMailStates(contacts), indexed, total, query.pageSize);
  }
  const [window, total] = await Promise.all([
    filter().then((resolved) => findKeysetPage(ContactModel, resolved, query, CONTACT_SORTS)),
    totalOf(query, filter, totals),
  ]);
  return keysetPageOf(await withMailStates(window.rows), window, total, query.pageSize);
}

export async function getContactDetail(id: string): Promise<ContactDetailDto> {
  const contact = await ContactModel.findById(id).lean();
  if (!contact) throw new HttpError('NOT_FOUND', 'No contact with this id');
  return detailOf(contact);
}

/**
 * Sets an enquiry's status and tells the kept views what it was before, as
 * the store saw it in the same atomic write; answers that status too.
 */
export async function setContactStatus(
  id: string,
  status: ContactStatus,
  changes: ContactChanges,
): Promise<{ contact: ContactDetailDto; previous: ContactStatus }> {
  return oneWriterPerDocument(`contact:${id}`, async () => {
    const before = await ContactModel.findByIdAndUpdate(
      id,
      { $set: { status } },
      { returnDocument: 'before', runValidators: true },
    ).lean();
    if (!before) throw new HttpError('NOT_FOUND', 'No contact with this id');
    const previous = before.status as ContactStatus;
    const contact = { ...before, status, updatedAt: new Date() };
    if (previous !== status) await changes.statusChanged(contactFactsOf(contact), previous);
    return { contact: await detailOf(contact), previous };
  });
}

/**
 * Deletes an enquiry for good, with what its mails still owed and their
 * receipts. A lead made from it keeps its own copy of the details.
 */
export async function deleteContact(id: string, changes: ContactChanges): Promise<ContactDto> {
  return oneWriterPerDocument(`contact:${id}`, async () => {
    const contact = await ContactModel.findOneAndDelete({ _id: id }).lean();
    if (!contact) throw new HttpError('NOT_FOUND', 'No contact with this id');
    const mails = await contactMailStatuses(id);
    await Promise.all([forgetContactMails(id), changes.deleted(contactFactsOf(contact))]);
    return toContactDto(contact, mails);
  });
}

/**
 * Every contact matching the list's filters, in the list's order, read in
 * batches: memory stays flat however many rows an export holds. The mail
 * states come from the outbox and the failed receipts, read once up front
 * (both small), rather than two reads per row.
 */
export function contactCursor(query: ContactListQuery): Readable {
  async function* rows(): AsyncGenerator<ContactDetailDto> {
    const search = query.search ? contactSearchQuery(query.search) : '';
    const [filter, mailsOf] = await Promise.all([
      filterOf(query, search),
      contactMailStatesInBulk(),
    ]);
    const { field, direction } = sortFieldOf(query.sort, CONTACT_SORTS);
    const cursor = ContactModel.find(filter)
      .sort({ [field]: direction, _id: direction })
      .lean<StoredContact[]>()
      .cursor({ batchSize: 500 });
    for await (const contact of cursor) {
      yield toDetailDto(contact, mailsOf(String(contact._id)));
    }
  }
  return Readable.from(rows());
}
