import { Types, type mongo } from 'mongoose';
import { enquiryAddressesAfter, hasEnquiries } from '../../contact/contact-by-address';
import { SubscriberModel } from '../../newsletter/subscriber.model';
import { readsByIdOnlyApplies } from '../../embedded-store';
import { ListMemberModel } from '../list-member.model';
import { rebuildPeopleInParts } from './person-rebuild-in-parts';
import { refreshPeople, PEOPLE_REFRESH_BATCH, type PeopleRefreshCounts } from './person-refresh';
import { people } from './person.model';

/** One batch of a source's addresses, and where the next starts (null: none is left). */
type AddressWalk = (
  after: string | null,
  limit: number,
) => Promise<{ keys: string[]; next: string | null }>;

function walkByStringId<T extends { _id: string }>(
  collection: () => mongo.Collection<T>,
  keyOf: (row: T) => string,
  field: keyof T & string,
): AddressWalk {
  return async (after, limit) => {
    const rows = await collection()
      .find((after ? { _id: { $gt: after } } : {}) as mongo.Filter<T>, {
        projection: { [field]: 1 },
      })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    const last = rows.at(-1);
    return {
      keys: rows.map((row) => keyOf(row as T)),
      next: rows.length === limit && last ? String(last._id) : null,
    };
  };
}

const subscriberAddressesAfter: AddressWalk = async (after, limit) => {
  const rows = await (
    SubscriberModel.collection as unknown as mongo.Collection<{
      _id: Types.ObjectId;
      email: string;
    }>
  )
    .find(after ? { _id: { $gt: new Types.ObjectId(after) } } : {}, {
      projection: { email: 1 },
    })
    .sort({ _id: 1 })
    .limit(limit)
    .toArray();
  const last = rows.at(-1);
  return {
    keys: rows.map(({ email }) => email),
    next: rows.length === limit && last ? String(last._id) : null,
  };
};

const memberAddressesAfter = walkByStringId(
  () => ListMemberModel.collection as unknown as mongo.Collection<{ _id: string; key: string }>,
  ({ key }) => key,
  'key',
);

// Every person already stored: one nothing holds any more is removed by its refresh.
const personAddressesAfter = walkByStringId(people, ({ _id }) => _id, '_id');

async function refreshEvery(
  walk: AddressWalk,
  counts: PeopleRefreshCounts,
  signal?: AbortSignal,
): Promise<void> {
  let after: string | null = null;
  do {
    signal?.throwIfAborted();
    const { keys, next } = await walk(after, PEOPLE_REFRESH_BATCH);
    const done = await refreshPeople(keys);
    counts.refreshed += done.refreshed;
    counts.removed += done.removed;
    after = next;
  } while (after);
}

/**
 * Rebuilds the people view from every record that holds an address: each
 * source walked in `_id` order a batch at a time (bounded memory however
 * many there are), each batch refreshed, then every stored person
 * refreshed, which removes those nothing holds. Repairs whatever a missed
 * refresh left behind; an address refreshed twice costs a read, nothing more.
 * `signal` stops it between two batches (a worker shutting down): what it
 * refreshed stays right, and the next pass does the rest.
 */
export async function rebuildPeople(signal?: AbortSignal): Promise<PeopleRefreshCounts> {
  // The walk below reads a whole collection per batch where only `_id` is served from an index.
  if (await readsByIdOnlyApplies()) return rebuildPeopleInParts(signal);
  const counts: PeopleRefreshCounts = { refreshed: 0, removed: 0 };
  for (const walk of [
    enquiryAddressesAfter,
    subscriberAddressesAfter,
    memberAddressesAfter,
    personAddressesAfter,
  ]) {
    await refreshEvery(walk, counts, signal);
  }
  return counts;
}

/**
 * Whether the people view is empty while some record holds an address: an
 * installation from before the view, which the worker fills at start.
 */
export async function peopleNeedFilling(): Promise<boolean> {
  if (await people().findOne({}, { projection: { _id: 1 } })) return false;
  const held = await Promise.all([
    hasEnquiries(),
    ...[SubscriberModel, ListMemberModel].map(async (model) =>
      Boolean(await model.collection.findOne({}, { projection: { _id: 1 } })),
    ),
  ]);
  return held.some(Boolean);
}
