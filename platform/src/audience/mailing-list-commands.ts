import { trusted } from 'mongoose';
import type { MailingListInput } from '@agency/contracts';
import { ACTIVE_LIST_FILTER } from './list-deletion';
import { MailingListModel } from './mailing-list.model';
import type { StoredMailingList } from './mailing-list-queries';

/** A new, empty list, recorded with who made it. */
export async function addMailingList(
  input: MailingListInput,
  createdBy: string,
): Promise<StoredMailingList> {
  const list = await MailingListModel.create({
    name: input.name,
    ...(input.description ? { description: input.description } : {}),
    createdBy,
  });
  return list.toObject();
}

/**
 * A list's new name and description (none given: it has none). Null when
 * there is no such list or it is being deleted: a list on its way out
 * changes no more.
 */
export async function renameMailingList(
  id: string,
  input: MailingListInput,
): Promise<StoredMailingList | null> {
  return MailingListModel.findOneAndUpdate(
    { _id: id, deletion: trusted(ACTIVE_LIST_FILTER.deletion) },
    input.description
      ? { $set: { name: input.name, description: input.description } }
      : { $set: { name: input.name }, $unset: { description: 1 } },
    { returnDocument: 'after', runValidators: true },
  ).lean<StoredMailingList>();
}
