/**
 * Reads of documents named by their ids, never by a scan of their
 * collection. MongoDB serves one `$in` of the ids from its `_id` index.
 * FerretDB 1.x serves from its index only a filter that is exactly
 * `{ _id: value }` (readsByIdOnly in embedded-store.ts): a `$in` of a few
 * ids reads and decodes the whole collection, so there each id is a read of
 * its own, a few at a time.
 */
import type { mongo } from 'mongoose';
import { chunksOf } from './batched-writes';
import { readsByIdOnlyApplies } from './embedded-store';

/** Ids per `$in` on a store that serves it from its index. */
const IDS_PER_FILTER = 1000;

/** Reads of one `_id` each in flight at once: a few of the store's connections, not all. */
const READS_IN_FLIGHT = 20;

type Keyed = { _id: unknown };

/** The documents with these ids that exist, in no particular order. */
export async function readByIds<T extends Keyed>(
  collection: mongo.Collection<T>,
  ids: readonly T['_id'][],
): Promise<T[]> {
  const found: T[] = [];
  const unique = [...new Set(ids)];
  if (!(await readsByIdOnlyApplies())) {
    for (const chunk of chunksOf(unique, IDS_PER_FILTER)) {
      const filter = { _id: { $in: chunk } } as mongo.Filter<T>;
      found.push(...((await collection.find(filter).toArray()) as T[]));
    }
    return found;
  }
  for (const chunk of chunksOf(unique, READS_IN_FLIGHT)) {
    const docs = await Promise.all(
      chunk.map((_id) => collection.findOne({ _id } as mongo.Filter<T>)),
    );
    for (const doc of docs) if (doc) found.push(doc as T);
  }
  return found;
}
