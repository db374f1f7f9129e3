import type { Locale, PublicListDto } from '@agency/contracts';
import { findPublicLists, type MailingList } from '@agency/platform';

type StoredList = MailingList & { _id: unknown };

/**
 * A public list as a visitor reads it in one language. A list made public
 * has a name in every language (the schema requires it); one written before
 * the language existed falls back to English, then to the staff name.
 */
export function toPublicListDto(list: StoredList, locale: Locale): PublicListDto {
  const text = list.localized?.[locale];
  const english = list.localized?.en;
  return {
    id: String(list._id),
    name: text?.name ?? english?.name ?? list.name,
    description: text?.name ? (text.description ?? null) : (english?.description ?? null),
  };
}

/** The lists a visitor may choose, named in their language. */
export async function listPublicLists(locale: Locale): Promise<PublicListDto[]> {
  const lists = await findPublicLists();
  return lists.map((list) => toPublicListDto(list, locale));
}
