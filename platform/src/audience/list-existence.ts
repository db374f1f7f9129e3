import { trusted, type Types } from 'mongoose';
import { ACTIVE_LIST_FILTER } from './list-deletion';
import { MailingListModel } from './mailing-list.model';

/** How many of these lists exist and are not being deleted (each id counted once by the store). */
export function countExistingLists(listIds: readonly string[]): Promise<number> {
  return MailingListModel.countDocuments({
    _id: trusted({ $in: listIds }),
    deletion: trusted(ACTIVE_LIST_FILTER.deletion),
  });
}

/**
 * The names of those of these lists that still exist and are not being
 * deleted, by id: one read by `_id` (a campaign names at most 50 lists).
 */
export async function findActiveListNames(
  listIds: readonly (string | Types.ObjectId)[],
): Promise<Map<string, string>> {
  if (listIds.length === 0) return new Map();
  const found = await MailingListModel.find(
    { _id: trusted({ $in: listIds }), deletion: trusted(ACTIVE_LIST_FILTER.deletion) },
    { name: 1 },
  ).lean();
  return new Map(found.map(({ _id, name }) => [String(_id), name]));
}

/** The ids, as strings, of those of these lists that still exist (being deleted or not). */
export async function findExistingListIds(
  listIds: readonly (string | Types.ObjectId)[],
): Promise<string[]> {
  const found = await MailingListModel.find({ _id: trusted({ $in: listIds }) }, { _id: 1 }).lean();
  return found.map(({ _id }) => String(_id));
}
