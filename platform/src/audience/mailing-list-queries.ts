import { trusted, type Types } from 'mongoose';
import type { MailingListQuery } from '@agency/contracts';
import { DomainError } from '../domain-error';
import { findPage, searchFilter } from '../list-pages';
import { MailingListModel, type MailingList } from './mailing-list.model';

/** A mailing list as stored, read as plain data. */
export type StoredMailingList = MailingList & { _id: Types.ObjectId };

/** A list as an import reads it: the name its members' consent records, and whether it is going. */
export interface ListForImport {
  _id: Types.ObjectId;
  name: string;
  deleting: boolean;
}

export const listNotFound = () => new DomainError('NOT_FOUND', 'No list with this id');
export const listBeingDeleted = () => new DomainError('CONFLICT', 'This list is being deleted');

/** `active`: lists without a deletion; `deleting`: those with one. */
function stateFilter(state: MailingListQuery['state']): Record<string, unknown> {
  if (!state) return {};
  return { deletion: trusted({ $exists: state === 'deleting' }) };
}

/** One page of the lists as the dashboard asks for it, and how many match. */
export async function findMailingListsPage(
  query: MailingListQuery,
): Promise<{ lists: StoredMailingList[]; total: number }> {
  const filter = {
    ...searchFilter(query.search, ['name', 'description']),
    ...stateFilter(query.state),
  };
  const { docs, total } = await findPage(MailingListModel, filter, query);
  return { lists: docs as StoredMailingList[], total };
}

export async function findMailingList(id: string): Promise<StoredMailingList | null> {
  return MailingListModel.findById(id).lean<StoredMailingList>();
}

export async function mailingListExists(id: string): Promise<boolean> {
  return Boolean(await MailingListModel.exists({ _id: id }));
}

/** Whether a list is being deleted, or null when there is no such list. */
export async function findListDeletionState(id: string): Promise<{ deleting: boolean } | null> {
  const list = await MailingListModel.findById(id, { deletion: 1 }).lean();
  return list ? { deleting: Boolean(list.deletion) } : null;
}

/** The list an import goes into, or null when it is gone. */
export async function findListForImport(
  id: Types.ObjectId | string | null | undefined,
): Promise<ListForImport | null> {
  const list = await MailingListModel.findById(id, { name: 1, deletion: 1 }).lean();
  return list ? { _id: list._id, name: list.name, deleting: Boolean(list.deletion) } : null;
}

/** The lists visitors may choose: public and not being deleted, by their staff name. */
export async function findPublicLists(): Promise<StoredMailingList[]> {
  return MailingListModel.find({
    public: true,
    deletion: trusted({ $exists: false }),
  })
    .sort({ name: 1, _id: 1 })
    .lean<StoredMailingList[]>();
}

/** The ids among `ids` that name a public list not being deleted. */
export async function findPublicListIds(ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const lists = await MailingListModel.find(
    { _id: trusted({ $in: ids }), public: true, deletion: trusted({ $exists: false }) },
    { _id: 1 },
  ).lean();
  return new Set(lists.map((list) => String(list._id)));
}
