import { trusted } from 'mongoose';
import { oneWriterPerDocument } from '../embedded-store';
import { forEachPage } from '../retention-pages';
import { contactFactsOf, tellAnonymised, type ContactChanges } from './contact-changes';
import { forgetContactMails } from './contact-mail-state';
import { ContactModel } from './contact.model';

/** What an anonymised enquiry keeps for the figures: its date, service, status and language. */
const PERSONAL_FIELDS_EMPTIED = { firstName: '', lastName: '', email: '', message: '' };
// The consent record's address goes too; the record itself says nothing of the person.
const PERSONAL_FIELDS_REMOVED = {
  phone: 1,
  searchTerms: 1,
  lastNameKey: 1,
  'consent.ip': 1,
} as const;

/**
 * One enquiry's anonymisation, as staff's own changes are made (one writer
 * per enquiry). Its owed mails and receipts go (an owed mail holds the
 * message), and the views kept beside it are told (`changes`): the campaign
 * audience's address copy and the list's search entries go, the figures keep
 * it. Answers false when another pass or a delete got there first.
 */
async function anonymiseEnquiry(id: string, now: Date, changes: ContactChanges): Promise<boolean> {
  return oneWriterPerDocument(`contact:${id}`, async () => {
    const before = await ContactModel.findOneAndUpdate(
      { _id: id, anonymisedAt: trusted({ $exists: false }) },
      { $set: { ...PERSONAL_FIELDS_EMPTIED, anonymisedAt: now }, $unset: PERSONAL_FIELDS_REMOVED },
      // `consent` may be a field this model does not declare yet: the update names it anyway.
      { returnDocument: 'before', strict: false },
    ).lean();
    if (!before) return false;
    await forgetContactMails(id);
    await tellAnonymised(changes, contactFactsOf(before));
    return true;
  });
}

/**
 * The enquiries' retention: every enquiry stored before `cutoff` and not
 * yet anonymised loses its personal details, a page of ids at a time.
 * Answers how many were anonymised.
 */
export async function anonymiseEnquiriesBefore(
  cutoff: Date,
  now: Date,
  changes: ContactChanges,
  pageSize?: number,
): Promise<number> {
  let anonymised = 0;
  await forEachPage(
    ContactModel,
    { createdAt: { $lt: cutoff }, anonymisedAt: { $exists: false } },
    async (ids) => {
      for (const id of ids) {
        if (await anonymiseEnquiry(String(id), now, changes)) anonymised += 1;
      }
    },
    pageSize,
  );
  return anonymised;
}
