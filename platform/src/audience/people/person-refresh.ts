import { chunksOf, UPDATE_STATEMENTS_PER_COMMAND } from '../../batched-writes';
import { insertUnlessPresent } from '../../database-errors';
import type { ContactFacts } from '../../contact/contact-changes';
import { createLogger, type Logger } from '../../logger';
import { normalizeEmail } from '../../mail/email-address';
import { readByIds } from '../../reads-by-id';
import { deleteByIds } from '../../writes-by-id';
import { personOfRecords, personWithEnquiry } from './person-of-records';
import { readAddressRecords } from './person-records';
import { people, type StoredPerson } from './person.model';

/** Addresses read per batch: one `$in` per owning collection. */
export const PEOPLE_REFRESH_BATCH = 2000;

export interface PeopleRefreshCounts {
  /** Addresses whose person was recomputed (and written only where it changed). */
  refreshed: number;
  removed: number;
}

/** Whether a stored person already says what its records say now (dates compared as instants). */
function samePerson(stored: StoredPerson | undefined, person: StoredPerson): boolean {
  if (!stored) return false;
  return (Object.keys(person) as (keyof StoredPerson)[]).every(
    (field) => JSON.stringify(stored[field] ?? null) === JSON.stringify(person[field] ?? null),
  );
}

async function replacePeople(persons: readonly StoredPerson[]): Promise<void> {
  // At most 50 statements per command: FerretDB's pool waits forever on more (embedded-store.ts).
  for (const chunk of chunksOf(persons, UPDATE_STATEMENTS_PER_COMMAND)) {
    await people().bulkWrite(
      chunk.map((person) => ({
        replaceOne: { filter: { _id: person._id }, replacement: person, upsert: true },
      })),
      { ordered: false },
    );
  }
}

/**
 * Writes only the people that changed: the new ones in one insert, those
 * whose fields differ replaced. An import of new addresses then costs an
 * insert per person (about a quarter of an update on the embedded store),
 * and a refresh that finds nothing changed writes nothing. A person another
 * refresh inserted meanwhile is replaced instead.
 */
async function writePeople(persons: readonly StoredPerson[]): Promise<void> {
  if (persons.length === 0) return;
  await writePeopleOver(persons, await storedPeople(persons.map(({ _id }) => _id)));
}

/** The people stored now for these addresses, by address (by `_id`: never a scan). */
async function storedPeople(keys: readonly string[]): Promise<Map<string, StoredPerson>> {
  return new Map((await readByIds(people(), keys)).map((person) => [person._id, person]));
}

/** `writePeople`, given the people stored now for these addresses (a whole-collection read already made). */
export async function writePeopleOver(
  persons: readonly StoredPerson[],
  stored: ReadonlyMap<string, StoredPerson>,
): Promise<void> {
  if (persons.length === 0) return;
  const fresh = persons.filter(({ _id }) => !stored.has(_id));
  const changed = persons.filter(
    (person) => stored.has(person._id) && !samePerson(stored.get(person._id), person),
  );
  const taken = await insertUnlessPresent(people(), fresh);
  await replacePeople([...changed, ...taken.map((index) => fresh[index] as StoredPerson)]);
}

async function refreshBatch(keys: readonly string[]): Promise<PeopleRefreshCounts> {
  const records = await readAddressRecords(keys);
  const persons: StoredPerson[] = [];
  const gone: string[] = [];
  for (const [key, held] of records) {
    const person = personOfRecords(key, held);
    if (person) persons.push(person);
    else gone.push(key);
  }
  await writePeople(persons);
  const removed = gone.length > 0 ? await deleteByIds(people(), gone) : 0;
  return { refreshed: persons.length, removed };
}

/**
 * Recomputes the people of these normalised addresses from the records that
 * hold them, and removes those nothing holds any more. Recomputing rather
 * than counting changes means a refresh missed or run twice never leaves a
 * person wrong once the next one runs.
 */
export async function refreshPeople(keys: Iterable<string>): Promise<PeopleRefreshCounts> {
  const counts: PeopleRefreshCounts = { refreshed: 0, removed: 0 };
  for (const batch of chunksOf([...new Set(keys)], PEOPLE_REFRESH_BATCH)) {
    const done = await refreshBatch(batch);
    counts.refreshed += done.refreshed;
    counts.removed += done.removed;
  }
  return counts;
}

/** A stored person with these enquiries folded in, or null when its records must be read again. */
function foldEnquiries(
  person: StoredPerson,
  enquiries: readonly ContactFacts[],
): StoredPerson | null {
  const oldestFirst = [...enquiries].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  let folded: StoredPerson | null = person;
  for (const enquiry of oldestFirst) {
    if (!folded) return null;
    folded = personWithEnquiry(folded, enquiry);
  }
  return folded;
}

/**
 * Refreshes the people of addresses whose only change is enquiries just
 * stored (given with their facts, as `ContactChanges.stored` tells them).
 * A person already in the view takes them in without a read of its records
 * (`personWithEnquiry`): the enquiries of a busy address, the subscribers
 * and the list members are each read whole by the embedded store for any
 * filter but an exact `_id`, and a refresh a second beside 200,000 of them
 * made the store's work per enquiry grow fourfold. Only the people are
 * read, by `_id`. An address without a person yet, or whose person cannot
 * say what the enquiry changes, is refreshed from its records as ever.
 */
export async function refreshPeopleWithEnquiries(
  stored: ReadonlyMap<string, readonly ContactFacts[]>,
): Promise<PeopleRefreshCounts> {
  const counts: PeopleRefreshCounts = { refreshed: 0, removed: 0 };
  for (const batch of chunksOf([...stored.keys()], PEOPLE_REFRESH_BATCH)) {
    const current = await storedPeople(batch);
    const folded: StoredPerson[] = [];
    const reread: string[] = [];
    for (const key of batch) {
      const person = current.get(key);
      const next = person ? foldEnquiries(person, stored.get(key) ?? []) : null;
      if (next) folded.push(next);
      else reread.push(key);
    }
    await writePeopleOver(folded, current);
    const done = await refreshPeople(reread);
    counts.refreshed += folded.length + done.refreshed;
    counts.removed += done.removed;
  }
  return counts;
}

/** The enquiries told as stored, by the normalised address they belong to. */
export function enquiriesByAddress(enquiries: Iterable<ContactFacts>): Map<string, ContactFacts[]> {
  const byAddress = new Map<string, ContactFacts[]>();
  for (const enquiry of enquiries) {
    const key = normalizeEmail(enquiry.email);
    byAddress.set(key, [...(byAddress.get(key) ?? []), enquiry]);
  }
  return byAddress;
}

let refreshLog: Logger | undefined;

/** Where a refresh that failed is reported (the process's own logger, once it has one). */
export function setPeopleRefreshLogger(logger: Logger): void {
  refreshLog = logger;
}

/**
 * Runs a refresh after a write is stored: the refresh never fails the write
 * it follows. One that failed leaves the people view behind, which the
 * daily rebuild repairs (person-rebuild.ts).
 */
export async function refreshQuietly(refresh: () => Promise<unknown>): Promise<void> {
  try {
    await refresh();
  } catch (error: unknown) {
    refreshLog ??= createLogger('people', 'warn');
    refreshLog.warn(
      { err: error },
      'the people view missed a change; the daily rebuild will repair it',
    );
  }
}

/** What a writer calls once its write is stored, with the addresses it touched. */
export function refreshPeopleAfterWrite(keys: Iterable<string>): Promise<void> {
  return refreshQuietly(() => refreshPeople(keys));
}
