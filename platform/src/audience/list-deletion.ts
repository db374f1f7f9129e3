import { Types, type mongo } from 'mongoose';
import { ListMemberModel } from './list-member.model';
import { MailingListModel, type MailingList } from './mailing-list.model';
import { refreshPeopleAfterWrite } from './people/person-refresh';

/**
 * Members removed per write. The embedded store turns a deleteMany into one
 * SQL statement with a variable per matched document, and SQLite refuses
 * past 32,766 of them ("too many SQL variables"): a list of 100,000 members
 * cannot go in one call, and a bounded chunk also keeps each write short on
 * MongoDB.
 */
export const LIST_DELETE_CHUNK_DEFAULT = 2000;

/** Lists that take campaigns, imports and new members: those not being deleted. */
export const ACTIVE_LIST_FILTER = { deletion: { $exists: false } } as const;

type StoredList = MailingList & { _id: Types.ObjectId };

/** The members' collection as the driver sees it: their `_id`s are strings. */
const members = () =>
  ListMemberModel.collection as unknown as mongo.Collection<{
    _id: string;
    list: Types.ObjectId;
    key: string;
  }>;

/**
 * Marks a list as being deleted, once: the first call sets its deletion
 * (with the member count to show progress against) and answers `started`;
 * a later call finds it marked already and answers `already`. Null when no
 * such list exists (never did, or its deletion has finished).
 */
export async function markListDeleting(
  listId: string,
): Promise<{ list: StoredList; outcome: 'started' | 'already' } | null> {
  const current = await MailingListModel.findById(listId).lean<StoredList>();
  if (!current) return null;
  if (current.deletion) return { list: current, outcome: 'already' };
  const marked = await MailingListModel.collection.findOneAndUpdate(
    { _id: current._id, ...ACTIVE_LIST_FILTER },
    {
      $set: {
        deletion: { total: current.memberCount, removed: 0, startedAt: new Date() },
        updatedAt: new Date(),
      },
    },
    { returnDocument: 'after' },
  );
  if (marked) return { list: marked as unknown as StoredList, outcome: 'started' };
  // Another request marked it between the read and the write.
  const after = await MailingListModel.findById(listId).lean<StoredList>();
  return after ? { list: after, outcome: 'already' } : null;
}

/** Whether a list exists and is being deleted. */
export async function isListDeleting(listId: string): Promise<boolean> {
  const list = await MailingListModel.findById(listId, { deletion: 1 }).lean();
  return Boolean(list?.deletion);
}

/** The lists whose deletion was asked for and has not finished, oldest request first. */
export async function listsBeingDeleted(): Promise<string[]> {
  const lists = await MailingListModel.collection
    .find<{ _id: Types.ObjectId }>({ deletion: { $exists: true } }, { projection: { _id: 1 } })
    .toArray();
  return lists.map(({ _id }) => String(_id));
}

/**
 * Removes at most `limit` members of a list and adds them to its progress:
 * found by the list's index without a sort (a sort costs the embedded store
 * the whole collection), then deleted by `_id`. Run again after a crash it
 * simply finds the members still there. Answers how many it found (0: none
 * are left) and how many of those it removed (a member staff removed in
 * between is found but not removed).
 */
export async function removeListMembersChunk(
  listId: string,
  limit: number,
): Promise<{ found: number; removed: number }> {
  const list = new Types.ObjectId(listId);
  const chunk = await members()
    .find({ list }, { projection: { _id: 1, key: 1 } })
    .limit(limit)
    .toArray();
  if (chunk.length === 0) return { found: 0, removed: 0 };
  const { deletedCount } = await members().deleteMany({
    _id: { $in: chunk.map(({ _id }) => _id) },
  });
  // One job per list writes this: no other writer races the increment.
  await MailingListModel.collection.updateOne(
    { _id: list },
    { $inc: { 'deletion.removed': deletedCount } },
  );
  await refreshPeopleAfterWrite(chunk.map(({ key }) => key));
  return { found: chunk.length, removed: deletedCount };
}

/** The last step, once no member is left: the list itself. */
export async function removeDeletedList(listId: string): Promise<void> {
  await MailingListModel.collection.deleteOne({ _id: new Types.ObjectId(listId) });
}
