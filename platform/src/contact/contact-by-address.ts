import { Types } from 'mongoose';
import type { ContactStatus, Locale, ServiceSlug } from '@agency/contracts';
import { normalizeEmail } from '../mail/email-address';
import { searchKey } from './contact-search';
import { ContactModel } from './contact.model';

/** What the people view needs of one enquiry: who, when, and whether it asked for news. */
export interface EnquiryOfAddress {
  id: string;
  /** The normalised address. */
  key: string;
  email: string;
  firstName: string;
  lastName: string;
  locale: Locale;
  service: ServiceSlug;
  status: ContactStatus;
  createdAt: Date;
  updatedAt: Date;
  /** When the sender ticked "send me news", or null (and on enquiries from before the box). */
  consentRequestedAt: Date | null;
}

interface RawEnquiry {
  _id: Types.ObjectId;
  email: string;
  firstName: string;
  lastName: string;
  locale: string;
  service: string;
  status: string;
  createdAt?: Date;
  updatedAt?: Date;
  consent?: { requestedAt?: unknown };
}

/** Read from the raw document: the consent field is newer than some enquiries. */
function enquiryOf(raw: RawEnquiry): EnquiryOfAddress {
  const createdAt = raw.createdAt ?? raw._id.getTimestamp();
  const requestedAt = raw.consent?.requestedAt;
  return {
    id: String(raw._id),
    key: normalizeEmail(raw.email),
    email: raw.email,
    firstName: raw.firstName,
    lastName: raw.lastName,
    locale: raw.locale as Locale,
    service: raw.service as ServiceSlug,
    status: raw.status as ContactStatus,
    createdAt,
    updatedAt: raw.updatedAt ?? createdAt,
    consentRequestedAt: requestedAt instanceof Date ? requestedAt : null,
  };
}

const ENQUIRY_FIELDS = {
  email: 1,
  firstName: 1,
  lastName: 1,
  locale: 1,
  service: 1,
  status: 1,
  createdAt: 1,
  updatedAt: 1,
  consent: 1,
} as const;

/**
 * The enquiries of these normalised addresses, newest first. Addresses are
 * stored as typed, so they are found through the search keys, which hold
 * each one lower-cased (one multikey index range per address), or as typed
 * when typed lower-case; the matches are checked against the normalised
 * address.
 */
export async function findEnquiriesByAddresses(
  keys: readonly string[],
): Promise<EnquiryOfAddress[]> {
  if (keys.length === 0) return [];
  const wanted = new Set(keys);
  const raw = await ContactModel.collection
    .find<RawEnquiry>(
      {
        $or: [
          { searchTerms: { $in: [...new Set(keys.map(searchKey))] } },
          // An enquiry stored before its search keys (the reconciliation adds them), typed lower-case.
          { email: { $in: [...wanted] } },
        ],
      },
      { projection: ENQUIRY_FIELDS },
    )
    .toArray();
  return raw
    .map(enquiryOf)
    .filter(({ key }) => wanted.has(key))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
}

/**
 * The addresses of the enquiries after `afterId` in `_id` order, `limit` at
 * most, and where the next call starts (null at the end): the rebuild of
 * the people view walks every enquiry this way.
 */
export async function enquiryAddressesAfter(
  afterId: string | null,
  limit: number,
): Promise<{ keys: string[]; next: string | null }> {
  const rows = await ContactModel.collection
    .find<{ _id: Types.ObjectId; email: string }>(
      afterId ? { _id: { $gt: new Types.ObjectId(afterId) } } : {},
      { projection: { email: 1 } },
    )
    .sort({ _id: 1 })
    .limit(limit)
    .toArray();
  const last = rows.at(-1);
  return {
    keys: rows.map(({ email }) => normalizeEmail(email)),
    next: rows.length === limit && last ? String(last._id) : null,
  };
}

/**
 * Every enquiry as the people view reads it, in the store's own order, a
 * thousand per read: the rebuild's one read of them all on a store that
 * serves no other filter than `_id` from an index (person-rebuild-in-parts.ts).
 */
export async function* everyEnquiryOfAddress(): AsyncGenerator<EnquiryOfAddress> {
  const cursor = ContactModel.collection
    .find<RawEnquiry>({}, { projection: ENQUIRY_FIELDS })
    .batchSize(1000);
  for await (const raw of cursor) yield enquiryOf(raw);
}

/** About how many enquiries are stored (the store's own count, read at once). */
export function estimatedEnquiryCount(): Promise<number> {
  return ContactModel.collection.estimatedDocumentCount();
}

/** Whether any enquiry is stored. */
export async function hasEnquiries(): Promise<boolean> {
  return Boolean(await ContactModel.collection.findOne({}, { projection: { _id: 1 } }));
}
