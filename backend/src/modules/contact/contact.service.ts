import { trusted } from 'mongoose';
import type { ContactDto, ContactInput, Locale } from '@agency/contracts';
import { ContactModel, type Contact, type ContactDocument } from './contact.model';

/** Maps a stored contact, a mongoose document or a lean one, to its DTO. */
export function toContactDto(contact: Contact & { _id: unknown }): ContactDto {
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
    mailState: contact.mailState as ContactDto['mailState'],
    createdAt: contact.createdAt.toISOString(),
  };
}

/** Stores an enquiry with its notification mail owed (`pending`). */
export async function storeContact(input: ContactInput, locale: Locale): Promise<ContactDocument> {
  const { phone, ...rest } = input;
  return ContactModel.create({ ...rest, ...(phone ? { phone } : {}), locale });
}

export async function findContactById(id: string): Promise<ContactDocument | null> {
  return ContactModel.findById(id).exec();
}

/** Enquiries whose mail is still owed and that nobody touched for `olderThan`. */
export async function findContactIdsAwaitingMail(
  olderThan: Date,
  limit: number,
): Promise<string[]> {
  const contacts = await ContactModel.find({
    mailState: 'pending',
    // Filters are sanitized globally; this operator is ours, not request data.
    updatedAt: trusted({ $lte: olderThan }),
  })
    .sort({ updatedAt: 1 })
    .limit(limit)
    .select({ _id: 1 })
    .lean()
    .exec();
  return contacts.map((contact) => String(contact._id));
}

export async function markContactMailSent(id: string): Promise<void> {
  await ContactModel.updateOne(
    { _id: id },
    { $set: { mailState: 'sent', mailSentAt: new Date() }, $unset: { mailError: 1 } },
  ).exec();
}

export async function markContactMailFailed(id: string, reason: string): Promise<void> {
  await ContactModel.updateOne(
    { _id: id, mailState: 'pending' },
    { $set: { mailState: 'failed', mailError: reason.slice(0, 500) } },
  ).exec();
}
