import type { mongo, Types } from 'mongoose';
import type { ListMemberConsentBasis } from '@agency/contracts';
import { findEnquiriesByAddresses, type EnquiryOfAddress } from '../../contact/contact-by-address';
import { SubscriberModel } from '../../newsletter/subscriber.model';
import { readByIds } from '../../reads-by-id';
import { ListMemberModel } from '../list-member.model';
import { SuppressionModel } from '../suppression.model';

/** A subscription as the people view reads it. */
export interface SubscriberRecord {
  email: string;
  status: string;
  locale: string;
  createdAt?: Date;
  updatedAt?: Date;
  confirmedAt?: Date;
  unsubscribedAt?: Date;
  unsubscribeMethod?: string;
  consent?: { requestedAt?: Date; source?: string; confirmedAt?: Date };
}

/** A list membership as the people view reads it. */
export interface MemberRecord {
  _id: string;
  list: Types.ObjectId;
  key: string;
  email: string;
  firstName?: string;
  lastName?: string;
  locale?: string;
  tags?: string[];
  consent: {
    basis: ListMemberConsentBasis;
    at: Date;
    file?: string;
    listName: string;
    byName?: string;
  };
  createdAt?: Date;
  updatedAt?: Date;
}

/** A suppression as the people view reads it. */
export interface SuppressionRecord {
  _id: string;
  reason: string;
  at: Date;
  detail?: string;
  updatedAt?: Date;
}

/** Every record that holds one address. */
export interface AddressRecords {
  enquiries: EnquiryOfAddress[];
  subscriber: SubscriberRecord | null;
  members: MemberRecord[];
  suppression: SuppressionRecord | null;
}

type Raw<T> = mongo.Collection<T & mongo.Document>;
/** The sources of the people view as the driver reads them (the refresh's and the rebuild's). */
export const subscribers = () => SubscriberModel.collection as unknown as Raw<SubscriberRecord>;
export const members = () => ListMemberModel.collection as unknown as Raw<MemberRecord>;
export const suppressions = () => SuppressionModel.collection as unknown as Raw<SuppressionRecord>;

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return groups;
}

/**
 * The records of a batch of normalised addresses: one read per owning
 * collection (`$in` over the batch), each served by the index on its key
 * on MongoDB. On the embedded store only the suppressions, keyed by the
 * address, are read by `_id` (reads-by-id.ts); the other three reads scan
 * their collection there, which is why an enquiry stored for a person
 * already in the view is folded into it without them (person-refresh.ts).
 */
export async function readAddressRecords(
  keys: readonly string[],
): Promise<Map<string, AddressRecords>> {
  const wanted = [...new Set(keys)];
  const [enquiries, subscribed, membership, suppressed] = await Promise.all([
    findEnquiriesByAddresses(wanted),
    subscribers()
      .find({ email: { $in: wanted } })
      .toArray(),
    members()
      .find({ key: { $in: wanted } })
      .toArray(),
    readByIds(suppressions(), wanted),
  ]);
  const enquiriesOf = groupBy(enquiries, ({ key }) => key);
  const membersOf = groupBy(membership as MemberRecord[], ({ key }) => key);
  const subscriberOf = new Map(subscribed.map((row) => [row.email, row as SubscriberRecord]));
  const suppressionOf = new Map(suppressed.map((row) => [row._id, row as SuppressionRecord]));
  return new Map(
    wanted.map((key) => [
      key,
      {
        enquiries: enquiriesOf.get(key) ?? [],
        subscriber: subscriberOf.get(key) ?? null,
        members: membersOf.get(key) ?? [],
        suppression: suppressionOf.get(key) ?? null,
      },
    ]),
  );
}
