import { Readable } from 'node:stream';
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
import {
  ContactModel,
  type Contact,
  contactIdFilterForMailState,
  contactMailStatuses,
  contactMailStatesInBulk,
  type ContactMailStatuses,
} from '@agency/platform';
import { toContactDto } from './contact.service';

/** What staff see of contacts; the public module only stores them. */
type StoredContact = Contact & { _id: unknown };

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

const SEARCH_FIELDS = ['firstName', 'lastName', 'email'] as const;

async function filterOf(query: ContactListQuery): Promise<Record<string, unknown>> {
  return {
    ...equalityFilter(query, ['status', 'service']),
    ...searchFilter(query.search, SEARCH_FIELDS),
    // The mail state lives in the outbox and the receipts: it narrows the `_id`s.
    ...(query.mailState ? await contactIdFilterForMailState(query.mailState) : {}),
  };
}

export async function listContacts(query: ContactListQuery): Promise<Page<ContactDto>> {
  const filter = await filterOf(query);
  const { docs: contacts, total } = await findPage(ContactModel, filter, query);
  const items = await Promise.all(
    contacts.map(async (contact) =>
      toContactDto(contact, await contactMailStatuses(String(contact._id))),
    ),
  );
  return pageOf(items, total, query);
}

export async function getContactDetail(id: string): Promise<ContactDetailDto> {
  const contact = await ContactModel.findById(id).lean();
  if (!contact) throw new HttpError('NOT_FOUND', 'No contact with this id');
  return detailOf(contact);
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
  return detailOf(contact);
}

/**
 * Every contact matching the list's filters, in the list's order, read in
 * batches: memory stays flat however many rows an export holds. The mail
 * states come from the outbox and the failed receipts, read once up front
 * (both small), rather than two reads per row.
 */
export function contactCursor(query: ContactListQuery): Readable {
  async function* rows(): AsyncGenerator<ContactDetailDto> {
    const [filter, mailsOf] = await Promise.all([filterOf(query), contactMailStatesInBulk()]);
    const cursor = ContactModel.find(filter)
      .sort(sortOf(query.sort))
      .lean<StoredContact[]>()
      .cursor({ batchSize: 500 });
    for await (const contact of cursor) {
      yield toDetailDto(contact, mailsOf(String(contact._id)));
    }
  }
  return Readable.from(rows());
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
