import type { Model, Types } from 'mongoose';

/** Any model: a pass reads and deletes through its collection. */
type Owned = Pick<Model<unknown>, 'collection'>;

/** Documents read, then deleted, per page of a retention pass. */
export const RETENTION_PAGE_SIZE = 500;

/**
 * Visits what `filter` matches a page of `_id`s at a time, in `_id` order,
 * each page handed to `act` before the next is read: a retention pass never
 * sends one delete of everything past a date, which would hold the store
 * (and, on MongoDB, the oplog) for as long as it ran. No TTL index does
 * this, since FerretDB 1.x has none. Answers how many documents were visited.
 */
export async function forEachPage(
  model: Owned,
  filter: Record<string, unknown>,
  act: (ids: Types.ObjectId[]) => Promise<void>,
  pageSize = RETENTION_PAGE_SIZE,
): Promise<number> {
  let visited = 0;
  let after: Types.ObjectId | null = null;
  for (;;) {
    const page: Record<string, unknown> =
      after === null ? filter : { $and: [filter, { _id: { $gt: after } }] };
    const rows: { _id: unknown }[] = await model.collection
      .find(page, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .limit(pageSize)
      .toArray();
    if (rows.length === 0) return visited;
    const ids: Types.ObjectId[] = rows.map((row) => row._id as Types.ObjectId);
    await act(ids);
    visited += ids.length;
    after = ids[ids.length - 1] ?? null;
    if (rows.length < pageSize) return visited;
  }
}

/** Deletes what `filter` matches, one page of `_id`s per delete. Answers how many went. */
export async function removeInPages(
  model: Owned,
  filter: Record<string, unknown>,
  pageSize = RETENTION_PAGE_SIZE,
): Promise<number> {
  let removed = 0;
  await forEachPage(
    model,
    filter,
    async (ids) => {
      removed += (await model.collection.deleteMany({ _id: { $in: ids } })).deletedCount;
    },
    pageSize,
  );
  return removed;
}
