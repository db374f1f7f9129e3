import { Types } from 'mongoose';
import type { ContactDto, ContactInput, Locale } from '@agency/contracts';
import { ContactModel, type Contact, type ContactDocument } from './contact.model';
import { oweContactMails, type ContactMailStatuses } from './contact-mail-state';

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

/**
 * Stores an enquiry with both its mails owed: the agency's notification and
 * the visitor's acknowledgement. The outbox entry is written first, under
 * the enquiry's id chosen here: if the process dies between the two
 * writes, an outbox entry without its enquiry is dropped by the worker,
 * whereas an enquiry without its entry would never be mailed. The visitor
 * hears "stored" only once both writes are done.
 */
export async function storeContact(input: ContactInput, locale: Locale): Promise<ContactDocument> {
  const { phone, ...rest } = input;
  const id = new Types.ObjectId();
  const createdAt = new Date();
  const fields = { ...rest, ...(phone ? { phone } : {}), locale };
  await oweContactMails(id.toHexString(), {
    ...fields,
    service: fields.service as ContactDto['service'],
    createdAt: createdAt.toISOString(),
  });
  return ContactModel.create({ _id: id, ...fields, createdAt });
}

export async function findContactById(id: string): Promise<ContactDocument | null> {
  return ContactModel.findById(id).exec();
}
