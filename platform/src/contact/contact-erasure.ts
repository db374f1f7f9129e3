import type { PersonDataExportDto } from '@agency/contracts';
import { trusted } from 'mongoose';
import type { ContactChanges } from './contact-changes';
import { DomainError } from '../domain-error';
import { removeContact } from './contact-commands';
import { ContactModel } from './contact.model';

/** The address typed any way: enquiries keep it as the visitor wrote it. */
function sameAddress(key: string) {
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return { email: trusted({ $regex: new RegExp(`^\\s*${escaped}\\s*$`, 'i') }) };
}

/** Every enquiry sent from a normalised address, oldest first, as the data download gives them. */
export async function findEnquiriesOf(key: string): Promise<PersonDataExportDto['enquiries']> {
  const contacts = await ContactModel.find(sameAddress(key)).sort({ createdAt: 1 }).lean();
  return contacts.map((contact) => ({
    id: String(contact._id),
    firstName: contact.firstName,
    lastName: contact.lastName,
    email: contact.email,
    phone: contact.phone ?? null,
    service: contact.service,
    message: contact.message,
    locale: contact.locale,
    status: contact.status,
    createdAt: contact.createdAt.toISOString(),
  }));
}

/** The language of the person's latest enquiry, if they sent one. */
export async function findEnquiryLocaleOf(key: string): Promise<string | null> {
  const [latest] = await ContactModel.find(sameAddress(key), { locale: 1 })
    .sort({ createdAt: -1 })
    .limit(1)
    .lean();
  return latest?.locale ?? null;
}

/**
 * Erasing a person: each of their enquiries deleted as staff delete one, so
 * its address copy, its owed mails and receipts, the campaigns' activity of
 * the address, the kept figures and the list's index in Redis all follow
 * (`changes`). One already gone (a step run again) is passed over.
 */
export async function eraseEnquiriesOf(key: string, changes: ContactChanges): Promise<number> {
  const contacts = await ContactModel.find(sameAddress(key), { _id: 1 }).lean();
  let removed = 0;
  for (const { _id } of contacts) {
    try {
      await removeContact(String(_id), changes);
      removed += 1;
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'NOT_FOUND')) throw error;
    }
  }
  return removed;
}
