import { trusted } from 'mongoose';
import { LOCALES, PUBLIC_LIST_FIELDS, type MailingListInput } from '@agency/contracts';
import { ACTIVE_LIST_FILTER } from './list-deletion';
import { MailingListModel } from './mailing-list.model';
import type { StoredMailingList } from './mailing-list-queries';

type LocalizedText = { name?: string; description?: string };

/** The list's name and description per language, as the input gives them (none: left out). */
function localizedOf(input: MailingListInput): Partial<Record<string, LocalizedText>> {
  const localized: Partial<Record<string, LocalizedText>> = {};
  for (const locale of LOCALES) {
    const fields = PUBLIC_LIST_FIELDS[locale];
    const name = input[fields.name];
    const description = input[fields.description];
    if (name || description) {
      localized[locale] = {
        ...(name ? { name } : {}),
        ...(description ? { description } : {}),
      };
    }
  }
  return localized;
}

/** A new, empty list, recorded with who made it. */
export async function addMailingList(
  input: MailingListInput,
  createdBy: string,
): Promise<StoredMailingList> {
  const list = await MailingListModel.create({
    name: input.name,
    ...(input.description ? { description: input.description } : {}),
    public: input.public,
    localized: localizedOf(input),
    createdBy,
  });
  return list.toObject();
}

/** The update of a list's fields: what the input leaves empty is removed. */
function listUpdateOf(input: MailingListInput): Record<string, unknown> {
  const $set: Record<string, unknown> = {
    name: input.name,
    public: input.public,
    localized: localizedOf(input),
  };
  if (input.description) $set.description = input.description;
  return input.description ? { $set } : { $set, $unset: { description: 1 } };
}

/**
 * A list's new name, description, public flag and names per language (none
 * given: it has none). Null when
 * there is no such list or it is being deleted: a list on its way out
 * changes no more.
 */
export async function renameMailingList(
  id: string,
  input: MailingListInput,
): Promise<StoredMailingList | null> {
  return MailingListModel.findOneAndUpdate(
    { _id: id, deletion: trusted(ACTIVE_LIST_FILTER.deletion) },
    listUpdateOf(input),
    { returnDocument: 'after', runValidators: true },
  ).lean<StoredMailingList>();
}
