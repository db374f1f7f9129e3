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
  contactMailStatuses,
  contactMailStatesInBulk,
  contactSearchQuery,
  countContactsUpTo,
  findContactById,
  findContactsByIds,
  findContactsPage,
  isoOrNull,
  keysetPageOf,
  openContactsInListOrder,
  removeContact,
  updateContactStatus,
  type ContactChanges,
  type ContactMailStatuses,
  type ContactTotals,
  type StoredContact,
} from '@agency/platform';
import { HttpError } from '../../errors';
import { toContactDto } from './contact.service';
import type { ContactListIndex } from './contact-list-index';

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
  totals: ContactTotals,
): Promise<{ total: number; totalKind: TotalKind }> {
  if (!query.search && !query.mailState) {
    const kept = await totals.count({ status: query.status, service: query.service });
    if (kept !== undefined) return { total: kept, totalKind: 'exact' };
  }
  return countContactsUpTo(query, CONTACT_COUNT_CAP);
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
  const indexed = await index.page(query, search);
  if (indexed) {
    const [contacts, total] = await Promise.all([
      findContactsByIds(indexed.ids),
      indexed.total ?? totalOf(query, totals),
    ]);
    return keysetPageOf(await withMailStates(contacts), indexed, total, query.pageSize);
  }
  const [window, total] = await Promise.all([findContactsPage(query), totalOf(query, totals)]);
  return keysetPageOf(await withMailStates(window.rows), window, total, query.pageSize);
}

export async function getContactDetail(id: string): Promise<ContactDetailDto> {
  const contact = await findContactById(id);
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
  const { contact, previous, mails } = await updateContactStatus(id, status, changes);
  return { contact: toDetailDto(contact, mails), previous };
}

/**
 * Deletes an enquiry for good, with what its mails still owed and their
 * receipts. A lead made from it keeps its own copy of the details.
 */
export async function deleteContact(id: string, changes: ContactChanges): Promise<ContactDto> {
  const { contact, mails } = await removeContact(id, changes);
  return toContactDto(contact, mails);
}

/** Rows per page of the index while an export walks it; read by `_id`, this many at once. */
const EXPORT_PAGE_SIZE = 100;

/**
 * The export's rows in the list's order from the index in Redis, a page of
 * ids at a time, each row read by `_id`: on the embedded store a sorted
 * cursor makes the store sort the whole collection in its memory (2.5 GB of
 * FerretDB's at 20,000 enquiries, past 20 GB at 200,000). Undefined when the
 * index does not answer this query (MongoDB, or an order or filter it does
 * not keep): the store's sorted cursor then serves, from its indexes.
 */
async function indexedExportPages(
  query: ContactListQuery,
  index: ContactListIndex,
): Promise<AsyncGenerator<StoredContact[]> | undefined> {
  const search = query.search ? contactSearchQuery(query.search) : '';
  const paged: ContactListQuery = { ...query, pageSize: EXPORT_PAGE_SIZE };
  const first = await index.page(paged, search);
  if (!first) return undefined;
  async function* pages(): AsyncGenerator<StoredContact[]> {
    let page = first;
    for (;;) {
      yield await findContactsByIds(page?.ids ?? []);
      if (!page?.next) return;
      page = await index.page({ ...paged, after: page.next }, search);
      // Redis went away mid-file: the download ends with an error rather than a silent gap.
      if (!page) throw new Error('the contacts index stopped answering during the export');
    }
  }
  return pages();
}

/**
 * Every contact matching the list's filters, in the list's order, read in
 * batches: memory stays flat however many rows an export holds. The mail
 * states come from the outbox and the failed receipts, read once up front
 * (both small), rather than two reads per row.
 */
export function contactCursor(listQuery: ContactListQuery, index: ContactListIndex): Readable {
  // The list's filters and order; a page's position (after, before) means nothing to a whole file.
  const query: ContactListQuery = { ...listQuery, after: undefined, before: undefined };
  // A cancelled download stops the reads it started: each would otherwise
  // go on reading the mail states of every enquiry owing mail.
  const cancelled = new AbortController();
  async function* rows(): AsyncGenerator<ContactDetailDto> {
    const [pages, mailsOf] = await Promise.all([
      indexedExportPages(query, index),
      contactMailStatesInBulk(cancelled.signal),
    ]);
    if (pages) {
      for await (const page of pages) {
        for (const contact of page) yield toDetailDto(contact, mailsOf(String(contact._id)));
      }
      return;
    }
    for await (const contact of await openContactsInListOrder(query)) {
      yield toDetailDto(contact, mailsOf(String(contact._id)));
    }
  }
  const stream = Readable.from(rows());
  stream.once('close', () => cancelled.abort());
  return stream;
}
