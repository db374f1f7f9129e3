import { Types } from 'mongoose';
import type {
  ContactDto,
  ContactInput,
  ContactMailContent,
  ContactStatus,
  Locale,
} from '@agency/contracts';
import { BULK_INSERT, insertBatcher } from '../batched-writes';
import { eraseCampaignActivityOf } from '../campaigns/results/campaign-people-queries';
import { DomainError } from '../domain-error';
import { oneWriterPerDocument } from '../embedded-store';
import type { StoredContact } from './contact-admin-queries';
import { contactFactsOf, type ContactChanges } from './contact-changes';
import {
  contactMailStatuses,
  forgetContactMails,
  oweContactMails,
  type ContactMailStatuses,
} from './contact-mail-state';
import { withSearchKeys } from './contact-search';
import { ContactModel } from './contact.model';

// Concurrent enquiries are written together, one insert per batch (see batched-writes.ts).
const insertContact = insertBatcher((contacts) => ContactModel.insertMany(contacts, BULK_INSERT));

/**
 * Stores an enquiry with both its mails owed: the agency's notification and
 * the visitor's acknowledgement. The outbox entry is written first, under
 * the enquiry's id chosen here: if the process dies between the two
 * writes, an outbox entry without its enquiry is dropped by the relay,
 * whereas an enquiry without its entry would never be mailed. The visitor
 * hears "stored" only once both writes are done, and the kept views
 * (`changes`) have counted it. Returns what the mails are written from too,
 * for the job that sends them.
 */
export async function storeContact(
  input: ContactInput,
  locale: Locale,
  changes: ContactChanges,
): Promise<{ id: string; mail: ContactMailContent }> {
  const { phone, ...rest } = input;
  const id = new Types.ObjectId().toHexString();
  const createdAt = new Date();
  const fields = {
    ...rest,
    ...(phone ? { phone } : {}),
    service: rest.service as ContactDto['service'],
    locale,
  };
  const mail: ContactMailContent = { ...fields, createdAt: createdAt.toISOString() };
  await oweContactMails(id, mail);
  await insertContact({ _id: id, ...withSearchKeys(fields), createdAt, updatedAt: createdAt });
  await changes.stored({ id, ...fields, status: 'new', createdAt });
  return { id, mail };
}

function noSuchContact(): DomainError {
  return new DomainError('NOT_FOUND', 'No contact with this id');
}

/**
 * Sets an enquiry's status and tells the kept views what it was before, as
 * the store saw it in the same atomic write; answers the enquiry as it is
 * now, that status, and where its mails stand.
 */
export async function updateContactStatus(
  id: string,
  status: ContactStatus,
  changes: ContactChanges,
): Promise<{ contact: StoredContact; previous: ContactStatus; mails: ContactMailStatuses }> {
  return oneWriterPerDocument(`contact:${id}`, async () => {
    const before = await ContactModel.findByIdAndUpdate(
      id,
      { $set: { status } },
      { returnDocument: 'before', runValidators: true },
    ).lean();
    if (!before) throw noSuchContact();
    const previous = before.status as ContactStatus;
    const contact = { ...before, status, updatedAt: new Date() };
    if (previous !== status) await changes.statusChanged(contactFactsOf(contact), previous);
    return { contact, previous, mails: await contactMailStatuses(String(contact._id)) };
  });
}

/**
 * Deletes an enquiry for good, with what its mails still owed and their
 * receipts, and what campaigns sent in individual mode recorded of its
 * address's opens and clicks (erasing a person erases their events);
 * answers it and where its mails stood. A lead made from it keeps its own
 * copy of the details.
 */
export async function removeContact(
  id: string,
  changes: ContactChanges,
): Promise<{ contact: StoredContact; mails: ContactMailStatuses }> {
  return oneWriterPerDocument(`contact:${id}`, async () => {
    const contact = await ContactModel.findOneAndDelete({ _id: id }).lean();
    if (!contact) throw noSuchContact();
    const mails = await contactMailStatuses(id);
    await Promise.all([
      forgetContactMails(id),
      eraseCampaignActivityOf(contact.email),
      changes.deleted(contactFactsOf(contact)),
    ]);
    return { contact, mails };
  });
}
