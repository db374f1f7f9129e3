import { trusted } from 'mongoose';
import type { ContactDto, ContactInput, Locale, MailState } from '@agency/contracts';
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
    mailState: contact.mailState as MailState,
    acknowledgementState: contact.acknowledgementState as MailState,
    createdAt: contact.createdAt.toISOString(),
  };
}

/** Stores an enquiry with both its mails owed (`pending`): the agency's and the visitor's. */
export async function storeContact(input: ContactInput, locale: Locale): Promise<ContactDocument> {
  const { phone, ...rest } = input;
  return ContactModel.create({ ...rest, ...(phone ? { phone } : {}), locale });
}

export async function findContactById(id: string): Promise<ContactDocument | null> {
  return ContactModel.findById(id).exec();
}

/** The two mails of an enquiry and the fields holding each one's outbox state. */
const CONTACT_MAILS = {
  notification: { state: 'mailState', sentAt: 'mailSentAt', error: 'mailError' },
  acknowledgement: {
    state: 'acknowledgementState',
    sentAt: 'acknowledgementSentAt',
    error: 'acknowledgementError',
  },
} as const;
type ContactMail = keyof typeof CONTACT_MAILS;

/** Keeps a stored SMTP reply readable without letting one mail bloat its document. */
const MAIL_ERROR_MAX_LENGTH = 500;

async function findContactIdsOwing(
  mail: ContactMail,
  olderThan: Date,
  limit: number,
): Promise<string[]> {
  const contacts = await ContactModel.find({
    [CONTACT_MAILS[mail].state]: 'pending',
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

/** Enquiries whose agency notification is still owed and that nobody touched since `olderThan`. */
export function findContactIdsAwaitingMail(olderThan: Date, limit: number): Promise<string[]> {
  return findContactIdsOwing('notification', olderThan, limit);
}

/** Enquiries whose acknowledgement to the visitor is still owed since `olderThan`. */
export function findContactIdsAwaitingAcknowledgement(
  olderThan: Date,
  limit: number,
): Promise<string[]> {
  return findContactIdsOwing('acknowledgement', olderThan, limit);
}

/*
 * Only a `pending` mail changes state: a duplicate job finishing after the
 * first, or a failure recorded late, never overwrites what already happened.
 */

async function markSent(mail: ContactMail, id: string): Promise<void> {
  const fields = CONTACT_MAILS[mail];
  await ContactModel.updateOne(
    { _id: id, [fields.state]: 'pending' },
    {
      $set: { [fields.state]: 'sent', [fields.sentAt]: new Date() },
      $unset: { [fields.error]: 1 },
    },
  ).exec();
}

async function markFailed(mail: ContactMail, id: string, reason: string): Promise<void> {
  const fields = CONTACT_MAILS[mail];
  await ContactModel.updateOne(
    { _id: id, [fields.state]: 'pending' },
    { $set: { [fields.state]: 'failed', [fields.error]: reason.slice(0, MAIL_ERROR_MAX_LENGTH) } },
  ).exec();
}

export function markContactMailSent(id: string): Promise<void> {
  return markSent('notification', id);
}

export function markContactMailFailed(id: string, reason: string): Promise<void> {
  return markFailed('notification', id, reason);
}

export function markContactAcknowledgementSent(id: string): Promise<void> {
  return markSent('acknowledgement', id);
}

export function markContactAcknowledgementFailed(id: string, reason: string): Promise<void> {
  return markFailed('acknowledgement', id, reason);
}
