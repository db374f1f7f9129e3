import { DateTime } from 'luxon';
import { trusted } from 'mongoose';
import type { PeopleListQuery, TotalKind } from '@agency/contracts';
import { searchKey } from '../../contact/contact-search';
import { DomainError } from '../../domain-error';
import { keysetWindow, prefixFilter, type KeysetWindow, type ListPosition } from '../../list-pages';
import { normalizeEmail } from '../../mail/email-address';
import { PersonModel, type StoredPerson } from './person.model';

/** How far the people screen counts its matches before answering "N+". */
export const PEOPLE_COUNT_CAP = 1000;

export type PeopleFilterQuery = Omit<PeopleListQuery, 'pageSize' | 'after' | 'before' | 'sort'>;

/** The search box: `@acme` matches the address's domain by its start, anything else a name's or the address's. */
function searchFilterOf(search: string | undefined): Record<string, unknown> {
  if (!search) return {};
  if (search.trimStart().startsWith('@')) {
    const domain = searchKey(search).replace(/^@+/, '');
    return domain ? prefixFilter('domains', domain) : {};
  }
  const text = searchKey(search);
  return text ? prefixFilter('searchTerms', text) : {};
}

/** The first and last instants of the days `since` and `until`, on the agency's clock. */
function seenFilterOf(query: PeopleFilterQuery, timeZone: string): Record<string, unknown> {
  const range: Record<string, Date> = {};
  if (query.since) range.$gte = DateTime.fromISO(query.since, { zone: timeZone }).toJSDate();
  if (query.until) {
    range.$lt = DateTime.fromISO(query.until, { zone: timeZone }).plus({ days: 1 }).toJSDate();
  }
  return Object.keys(range).length > 0 ? { firstSeenAt: trusted(range) } : {};
}

/** The store filter of the screen's filters and search: each one an index's leading field. */
export function peopleFilterOf(
  query: PeopleFilterQuery,
  timeZone: string,
): Record<string, unknown> {
  return {
    ...(query.listId ? { listIds: query.listId } : {}),
    ...(query.tag ? { tags: query.tag } : {}),
    ...(query.locale ? { locale: query.locale } : {}),
    ...(query.source ? { sources: query.source } : {}),
    ...(query.consent ? { consent: query.consent } : {}),
    ...(query.suppressed ? { suppressed: query.suppressed === 'yes' } : {}),
    ...seenFilterOf(query, timeZone),
    ...searchFilterOf(query.search),
  };
}

/** The stored order of a sort key: the address is the `_id`, which breaks ties too. */
export function peopleSortOf(sort: string): Record<string, 1 | -1> {
  const direction = sort.startsWith('-') ? -1 : 1;
  return sort.endsWith('email') ? { _id: direction } : { firstSeenAt: direction, _id: direction };
}

const CURSOR_REFUSED = 'Not a position in this list in this order; start again from the first page';
const ADDRESS_MAX_LENGTH = 320;

function refused(name: 'after' | 'before'): DomainError {
  return new DomainError('VALIDATION_FAILED', 'Some fields are invalid', {
    [name]: CURSOR_REFUSED,
  });
}

/** A position of the people's order: an address, and the first-seen instant when the order is by it. */
function decodePosition(text: string, sort: string, name: 'after' | 'before'): ListPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw refused(name);
  }
  if (!Array.isArray(decoded) || decoded.length !== 3) throw refused(name);
  const [cursorSort, value, id] = decoded as unknown[];
  const byDate = !sort.endsWith('email');
  const valueFits = byDate
    ? typeof value === 'number' &&
      Number.isInteger(value) &&
      !Number.isNaN(new Date(value).getTime())
    : value === null;
  if (
    cursorSort !== sort ||
    typeof id !== 'string' ||
    id.length > ADDRESS_MAX_LENGTH ||
    !valueFits
  ) {
    throw refused(name);
  }
  return { value: value as number | null, id };
}

function positionOf(person: StoredPerson, sort: string): ListPosition {
  return sort.endsWith('email')
    ? { value: null, id: person._id }
    : { value: person.firstSeenAt.getTime(), id: person._id };
}

/** The people strictly past `from` when reading in `direction`. */
function pastPosition(
  from: ListPosition,
  direction: 1 | -1,
  sort: string,
): Record<string, unknown> {
  const beyond = direction === 1 ? '$gt' : '$lt';
  if (sort.endsWith('email')) return { _id: trusted({ [beyond]: from.id }) };
  const at = new Date(from.value as number);
  return {
    $or: [
      { firstSeenAt: trusted({ [beyond]: at }) },
      { firstSeenAt: at, _id: trusted({ [beyond]: from.id }) },
    ],
  };
}

function pageStartOf(query: PeopleListQuery): { after?: ListPosition; before?: ListPosition } {
  if (query.after && query.before) {
    throw new DomainError('VALIDATION_FAILED', 'Some fields are invalid', {
      before: 'Give either after or before, not both',
    });
  }
  if (query.after) return { after: decodePosition(query.after, query.sort, 'after') };
  if (query.before) return { before: decodePosition(query.before, query.sort, 'before') };
  return {};
}

/** As list-pages' countUpTo: past `cap` the answer is "cap+" rather than a read of every match. */
async function countPeopleUpTo(
  filter: Record<string, unknown>,
  cap: number,
): Promise<{ total: number; totalKind: TotalKind }> {
  const counted = await PersonModel.countDocuments(filter).limit(cap + 1);
  return counted > cap
    ? { total: cap, totalKind: 'atLeast' }
    : { total: counted, totalKind: 'exact' };
}

/** One keyset page of people in the screen's order: one index range read of `pageSize + 1`. */
export async function findPeoplePage(
  query: PeopleListQuery,
  timeZone: string,
): Promise<KeysetWindow<StoredPerson> & { total: number; totalKind: TotalKind }> {
  const filter = peopleFilterOf(query, timeZone);
  const start = pageStartOf(query);
  const from = start.after ?? start.before;
  const order = peopleSortOf(query.sort);
  const forward = start.before ? -1 : 1;
  const reading = Object.fromEntries(
    Object.entries(order).map(([field, direction]) => [field, direction * forward]),
  ) as Record<string, 1 | -1>;
  const direction = reading._id as 1 | -1;
  const [rows, counted] = await Promise.all([
    PersonModel.find(from ? { $and: [filter, pastPosition(from, direction, query.sort)] } : filter)
      .sort(reading)
      .limit(query.pageSize + 1)
      .lean<StoredPerson[]>(),
    countPeopleUpTo(filter, PEOPLE_COUNT_CAP),
  ]);
  const window = keysetWindow(rows, {
    sort: query.sort,
    pageSize: query.pageSize,
    start,
    positionOf: (person) => positionOf(person, query.sort),
  });
  return { ...window, ...counted };
}

/** Every matching person in the screen's order, read as a stream (the export). */
export async function* peopleInOrder(
  query: PeopleFilterQuery & { sort: string },
  timeZone: string,
): AsyncGenerator<StoredPerson> {
  yield* PersonModel.find(peopleFilterOf(query, timeZone))
    .sort(peopleSortOf(query.sort))
    .lean<StoredPerson[]>()
    .cursor();
}

/** The person of an address, however it is typed, or null. */
export async function findPerson(email: string): Promise<StoredPerson | null> {
  return PersonModel.findById(normalizeEmail(email)).lean<StoredPerson>();
}
