/**
 * Text as searched and sorted: lower-case, without accents or other marks
 * (é → e, Arabic short vowels dropped), spaces collapsed. What is stored and
 * what is searched go through the same function.
 */
export function searchKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The keys an enquiry is found and sorted by, stored with it: the start of
 * any of them matches a search. Each name word counts, so "sal" finds
 * "Ben Salah"; the whole name, so "amira ben" finds Amira Ben Salah; and
 * the e-mail address. One multikey index serves the prefix search.
 */
export function contactSearchKeys(contact: {
  firstName: string;
  lastName: string;
  email: string;
}): { searchTerms: string[]; lastNameKey: string } {
  const first = searchKey(contact.firstName);
  const last = searchKey(contact.lastName);
  const terms = new Set([
    `${first} ${last}`.trim(),
    first,
    last,
    ...first.split(' '),
    ...last.split(' '),
    searchKey(contact.email),
  ]);
  terms.delete('');
  return { searchTerms: [...terms], lastNameKey: last };
}

/** An enquiry as it is stored: its fields and the keys it is found and sorted by. */
export function withSearchKeys<T extends { firstName: string; lastName: string; email: string }>(
  contact: T,
): T & { searchTerms: string[]; lastNameKey: string } {
  return { ...contact, ...contactSearchKeys(contact) };
}
