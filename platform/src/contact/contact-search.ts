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
 * What a search box's text is looked up as: its search key, without the
 * "@" people type before a domain ("@acme.tn" searches the domain acme.tn).
 */
export function contactSearchQuery(text: string): string {
  return searchKey(text).replace(/^@+/, '');
}

/**
 * The domain of an address and each domain it belongs to, down to two
 * labels: "sales@eu.acme.tn" gives "eu.acme.tn" and "acme.tn", so a search
 * for a company's domain finds everyone who wrote from it.
 */
function domainTerms(emailKey: string): string[] {
  const at = emailKey.lastIndexOf('@');
  if (at < 0) return [];
  const labels = emailKey
    .slice(at + 1)
    .split('.')
    .filter(Boolean);
  return labels.slice(0, -1).map((_label, index) => labels.slice(index).join('.'));
}

/**
 * The keys an enquiry is found and sorted by, stored with it: the start of
 * any of them matches a search. Each name word counts, so "sal" finds
 * "Ben Salah"; the whole name, so "amira ben" finds Amira Ben Salah; the
 * e-mail address; and its domains, so "acme.tn" finds "sales@eu.acme.tn".
 * One multikey index serves the prefix search.
 */
export function contactSearchKeys(contact: {
  firstName: string;
  lastName: string;
  email: string;
}): { searchTerms: string[]; lastNameKey: string } {
  const first = searchKey(contact.firstName);
  const last = searchKey(contact.lastName);
  const email = searchKey(contact.email);
  const terms = new Set([
    `${first} ${last}`.trim(),
    first,
    last,
    ...first.split(' '),
    ...last.split(' '),
    email,
    ...domainTerms(email),
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
