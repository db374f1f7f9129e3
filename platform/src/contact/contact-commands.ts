import { Types } from 'mongoose';
import {
  CONTACT_CONSENT_SOURCE,
  CONTACT_CONSENT_WORDING_VERSION,
  type ContactDto,
  type ContactInput,
  type ContactMailContent,
  type ContactStatus,
  type Locale,
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

/** An enquiry as the form sends it; the news box may be missing (scripts, older callers): unticked. */
export type ContactSubmission = Omit<ContactInput, 'newsletterConsent'> & {
  newsletterConsent?: boolean;
};

/** Who sent the enquiry, for its consent record: their address on the network, and when. */
export interface ContactRequestContext {
  ip?: string;
  at?: Date;
}

/**
 * The consent an enquiry records when its visitor ticked "send me news",
 * as the newsletter records one: when, from where, in which language, on
 * which form, under which wording. Unticked: none at all.
 */
function consentOf(
  ticked: boolean | undefined,
  locale: Locale,
  { ip, at }: { ip?: string; at: Date },
) {
  if (ticked !== true) return {};
  return {
    consent: {
      requestedAt: at,
      ...(ip ? { ip } : {}),
      locale,
      source: CONTACT_CONSENT_SOURCE,
      wordingVersion: CONTACT_CONSENT_WORDING_VERSION,
    },
  };
}

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
  input: ContactSubmission,
  locale: Locale,
  changes: ContactChanges,
  request: ContactRequestContext = {},
): Promise<{ id: string; mail: ContactMailContent }> {
  const { phone, newsletterConsent, ...rest } = input;
  const id = new Types.ObjectId().toHexString();
  const createdAt = request.at ?? new Date();
  const fields = {
    ...rest,
    ...(phone ? { phone } : {}),
    service: rest.service as ContactDto['service'],
    locale,
  };
  const consent = consentOf(newsletterConsent, locale, { ip: request.ip, at: createdAt });
  const mail: ContactMailContent = { ...fields, createdAt: createdAt.toISOString() };
  await oweContactMails(id, mail);
  await insertContact({
    _id: id,
    ...withSearchKeys(fields),
    ...consent,
    createdAt,
    updatedAt: createdAt,
  });
  await changes.stored({
    id,
    ...fields,
    status: 'new',
    createdAt,
    consented: 'consent' in consent,
  });
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
