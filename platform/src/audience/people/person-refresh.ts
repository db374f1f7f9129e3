import { chunksOf, UPDATE_STATEMENTS_PER_COMMAND } from '../../batched-writes';
import { createLogger, type Logger } from '../../logger';
import { personOfRecords } from './person-of-records';
import { readAddressRecords } from './person-records';
import { people, type StoredPerson } from './person.model';

/** Addresses read per batch: one `$in` per owning collection. */
export const PEOPLE_REFRESH_BATCH = 500;

export interface PeopleRefreshCounts {
  written: number;
  removed: number;
}

async function writePeople(persons: StoredPerson[]): Promise<void> {
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
  const { deletedCount } =
    gone.length > 0 ? await people().deleteMany({ _id: { $in: gone } }) : { deletedCount: 0 };
  return { written: persons.length, removed: deletedCount };
}

/**
 * Recomputes the people of these normalised addresses from the records that
 * hold them, and removes those nothing holds any more. Recomputing rather
 * than counting changes means a refresh missed or run twice never leaves a
 * person wrong once the next one runs.
 */
export async function refreshPeople(keys: Iterable<string>): Promise<PeopleRefreshCounts> {
  const counts: PeopleRefreshCounts = { written: 0, removed: 0 };
  for (const batch of chunksOf([...new Set(keys)], PEOPLE_REFRESH_BATCH)) {
    const done = await refreshBatch(batch);
    counts.written += done.written;
    counts.removed += done.removed;
  }
  return counts;
}

let refreshLog: Logger | undefined;

/** Where a refresh that failed is reported (the process's own logger, once it has one). */
export function setPeopleRefreshLogger(logger: Logger): void {
  refreshLog = logger;
}

/**
 * What a writer calls once its write is stored: the refresh never fails the
 * write it follows. A refresh that failed leaves the people view behind,
 * which the daily rebuild repairs (person-rebuild.ts).
 */
export async function refreshPeopleAfterWrite(keys: Iterable<string>): Promise<void> {
  try {
    await refreshPeople(keys);
  } catch (error: unknown) {
    refreshLog ??= createLogger('people', 'warn');
    refreshLog.warn(
      { err: error },
      'the people view missed a change; the daily rebuild will repair it',
    );
  }
}
