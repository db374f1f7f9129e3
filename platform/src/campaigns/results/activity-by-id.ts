/**
 * The event writer's reads and clears of a batch's activity documents, by
 * `_id` and never by a scan: a batch's cost stays that of its recipients
 * however many the campaign has. MongoDB serves one `$in` of the ids from
 * the `_id` index. FerretDB 1.x serves from its index only a filter that is
 * exactly `{ _id: value }` (readsByIdOnly in embedded-store.ts): anything
 * else, a `$in` of ids or an `_id` with another condition, reads and decodes
 * the whole collection, every campaign's recipients, at each batch.
 */
import { chunksOf, UPDATE_STATEMENTS_PER_COMMAND } from '../../batched-writes';
import { readsByIdOnlyApplies } from '../../embedded-store';
import { activityCollection, type CampaignActivity } from './campaign-results.model';

/** Reads of one `_id` each in flight at once: a few of the store's connections, not all. */
const READS_IN_FLIGHT = 20;

/** The activity documents with these ids that exist, by id. */
export async function readActivitiesById(
  ids: readonly string[],
): Promise<Map<string, CampaignActivity>> {
  if (!(await readsByIdOnlyApplies())) {
    const found = await activityCollection()
      .find({ _id: { $in: [...ids] } })
      .toArray();
    return new Map(found.map((doc) => [doc._id, doc]));
  }
  const found: CampaignActivity[] = [];
  for (const chunk of chunksOf(ids, READS_IN_FLIGHT)) {
    const docs = await Promise.all(chunk.map((_id) => activityCollection().findOne({ _id })));
    for (const doc of docs) if (doc) found.push(doc);
  }
  return new Map(found.map((doc) => [doc._id, doc]));
}

/**
 * Clears the change the batch left pending on these documents, once its
 * `$inc` landed. By exact `_id` on FerretDB, unconditionally: batches are
 * written one at a time (campaignEventsOneBatchAtATime), so no other batch
 * wrote these documents since this one did.
 */
export async function clearPendingChanges(ids: readonly string[], batchId: string): Promise<void> {
  if (ids.length === 0) return;
  if (!(await readsByIdOnlyApplies())) {
    await activityCollection().updateMany(
      { _id: { $in: [...ids] }, 'pending.batch': batchId },
      { $set: { pending: null } },
    );
    return;
  }
  for (const chunk of chunksOf(ids, UPDATE_STATEMENTS_PER_COMMAND)) {
    await activityCollection().bulkWrite(
      chunk.map((_id) => ({ updateOne: { filter: { _id }, update: { $set: { pending: null } } } })),
      { ordered: false },
    );
  }
}
