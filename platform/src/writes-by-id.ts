/**
 * Deletes and updates of documents named by their ids, never by a scan of
 * their collection. MongoDB serves one `$in` of the ids from its `_id`
 * index. FerretDB 1.x serves from its index only a filter that is exactly
 * `{ _id: value }` (readsByIdOnly in embedded-store.ts): a `$in` reads and
 * decodes the whole collection, so removing a thousand orphans a chunk at
 * a time cost a scan per chunk, and the reconciliation grew with the square
 * of the enquiries. There each id is a statement of its own, in commands
 * of at most UPDATE_STATEMENTS_PER_COMMAND.
 */
import type { mongo } from 'mongoose';
import { chunksOf, UPDATE_STATEMENTS_PER_COMMAND } from './batched-writes';
import { readsByIdOnlyApplies } from './embedded-store';

/** Ids per `$in` on a store that serves it from its index. */
const IDS_PER_FILTER = 1000;

type Keyed = { _id: unknown };

const byId = <T extends Keyed>(_id: T['_id']) => ({ _id }) as mongo.Filter<T>;
const byIds = <T extends Keyed>(ids: readonly T['_id'][]) =>
  ({ _id: { $in: [...ids] } }) as mongo.Filter<T>;

/** Deletes the documents with these ids; returns how many there were. */
export async function deleteByIds<T extends Keyed>(
  collection: mongo.Collection<T>,
  ids: readonly T['_id'][],
): Promise<number> {
  let deleted = 0;
  if (!(await readsByIdOnlyApplies())) {
    for (const chunk of chunksOf(ids, IDS_PER_FILTER)) {
      deleted += (await collection.deleteMany(byIds<T>(chunk))).deletedCount;
    }
    return deleted;
  }
  for (const chunk of chunksOf(ids, UPDATE_STATEMENTS_PER_COMMAND)) {
    const result = await collection.bulkWrite(
      chunk.map((_id) => ({ deleteOne: { filter: byId<T>(_id) } })),
      { ordered: false },
    );
    deleted += result.deletedCount;
  }
  return deleted;
}

/** Applies `update` to the documents with these ids; returns how many it changed. */
export async function updateByIds<T extends Keyed>(
  collection: mongo.Collection<T>,
  ids: readonly T['_id'][],
  update: mongo.UpdateFilter<T>,
): Promise<number> {
  let modified = 0;
  if (!(await readsByIdOnlyApplies())) {
    for (const chunk of chunksOf(ids, IDS_PER_FILTER)) {
      modified += (await collection.updateMany(byIds<T>(chunk), update)).modifiedCount;
    }
    return modified;
  }
  for (const chunk of chunksOf(ids, UPDATE_STATEMENTS_PER_COMMAND)) {
    const result = await collection.bulkWrite(
      chunk.map((_id) => ({ updateOne: { filter: byId<T>(_id), update } })),
      { ordered: false },
    );
    modified += result.modifiedCount;
  }
  return modified;
}
