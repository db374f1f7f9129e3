import { Types } from 'mongoose';
import type { ContactDto, ContactInput, ContactMailContent, Locale } from '@agency/contracts';
import {
  BULK_INSERT,
  insertBatcher,
  ContactModel,
  type Contact,
  type ContactDocument,
  oweContactMails,
  withSearchKeys,
  type ContactChanges,
  type ContactMailStatuses,
} from '@agency/platform';

/**
 * Maps a stored contact, a mongoose document or a lean one, and where its
 * two mails stand (`contactMailStatuses`) to its DTO.
 */
export function toContactDto(
  contact: Contact & { _id: unknown },
  mails: ContactMailStatuses,
): ContactDto {
  return {
    id: String(contact._id),
    firstName: contact.firstName,
    lastName: contact.lastName,
    email: contact.email,
    ...(contact.phone ? { phone: contact.phone } : {}),
    service: contact.service as ContactDto['service'],
    message: contact.message,
    locale: contact.locale as Locale,
    status: contact.status as ContactDto['status'],
    mailState: mails.notification.state,
    acknowledgementState: mails.acknowledgement.state,
    createdAt: contact.createdAt.toISOString(),
  };
}

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

export async function findContactById(id: string): Promise<ContactDocument | null> {
  return ContactModel.findById(id).exec();
}
