import { trusted } from 'mongoose';
import type { ImportRowReason, SuppressionQuery } from '@agency/contracts';
import { equalityFilter, findPage, searchFilter, sortOf } from '../list-pages';
import { normalizeEmail } from '../mail/email-address';
import { SubscriberModel } from '../newsletter/subscriber.model';
import { SuppressionModel, type Suppression } from './suppression.model';

/** An entry of the suppression list as stored: its `_id` is the normalised address. */
export type StoredSuppression = Suppression & { _id: string };

function filterOf(query: Pick<SuppressionQuery, 'search' | 'reason'>) {
  return { ...equalityFilter(query, ['reason']), ...searchFilter(query.search, ['_id', 'detail']) };
}

/** The address is the `_id`: sorting by it needs no second key. */
function sortKeyOf(sort: string): string {
  return sort.replace('email', '_id');
}

/** One page of the suppression list as the dashboard asks for it, and how many match. */
export async function findSuppressionsPage(
  query: SuppressionQuery,
): Promise<{ entries: StoredSuppression[]; total: number }> {
  const { docs, total } = await findPage(SuppressionModel, filterOf(query), {
    ...query,
    sort: sortKeyOf(query.sort),
  });
  return { entries: docs as StoredSuppression[], total };
}

/** Every matching entry in the list's order, read as a stream (the export). */
export async function* suppressionsInOrder(
  query: Pick<SuppressionQuery, 'search' | 'reason' | 'sort'>,
): AsyncGenerator<StoredSuppression> {
  yield* SuppressionModel.find(filterOf(query))
    .sort(sortOf(sortKeyOf(query.sort)))
    .lean<StoredSuppression[]>()
    .cursor();
}

/** The entry of an address, however it is typed, or null. */
export async function findSuppression(email: string): Promise<StoredSuppression | null> {
  return SuppressionModel.findById(normalizeEmail(email)).lean<StoredSuppression>();
}

/** Whether a normalised address is on the suppression list. */
export async function isSuppressed(key: string): Promise<boolean> {
  return Boolean(await SuppressionModel.exists({ _id: key }));
}

/** Which of these addresses no campaign mails: suppressed, or unsubscribed from the newsletter. */
export async function excludedAmong(keys: readonly string[]): Promise<Set<string>> {
  const [suppressed, left] = await Promise.all([
    SuppressionModel.find({ _id: trusted({ $in: keys }) }, { _id: 1 }).lean(),
    SubscriberModel.find(
      { email: trusted({ $in: keys }), status: 'unsubscribed' },
      { email: 1 },
    ).lean(),
  ]);
  return new Set([...suppressed.map(({ _id }) => _id), ...left.map(({ email }) => email)]);
}

/** Addresses an import never takes in, by the reason the report gives. */
export async function findImportExclusions(): Promise<Map<string, ImportRowReason>> {
  const reasons = new Map<string, ImportRowReason>();
  const left = SubscriberModel.collection
    .find<{ email: string }>({ status: 'unsubscribed' }, { projection: { email: 1 } })
    .batchSize(5000);
  for await (const { email } of left) reasons.set(normalizeEmail(email), 'unsubscribed');
  const suppressed = SuppressionModel.collection
    .find<{ _id: string }>({}, { projection: { _id: 1 } })
    .batchSize(5000);
  for await (const { _id } of suppressed) reasons.set(_id, 'suppressed');
  return reasons;
}
