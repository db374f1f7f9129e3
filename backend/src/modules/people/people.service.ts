import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import {
  PEOPLE_EXPORT_COLUMNS,
  PERSON_FIELDS_AS_STORED,
  type KeysetPage,
  type PeopleListQuery,
  type PersonDto,
} from '@agency/contracts';
import {
  findListNames,
  findPeoplePage,
  keysetPageOf,
  peopleInOrder,
  type StoredPerson,
} from '@agency/platform';

type FieldsAsStored = Pick<PersonDto, (typeof PERSON_FIELDS_AS_STORED)[number]>;

/** The fields the screen shows as stored, and only those: search keys and segment facts stay in. */
const fieldsAsStored = (person: StoredPerson): FieldsAsStored =>
  Object.fromEntries(
    PERSON_FIELDS_AS_STORED.map((field) => [field, person[field]]),
  ) as FieldsAsStored;

export function toPersonDto(person: StoredPerson): PersonDto {
  return {
    key: person._id,
    ...fieldsAsStored(person),
    firstSeenAt: person.firstSeenAt.toISOString(),
    lastSeenAt: person.lastSeenAt.toISOString(),
  };
}

export async function listPeople(
  query: PeopleListQuery,
  timeZone: string,
): Promise<KeysetPage<PersonDto>> {
  const page = await findPeoplePage(query, timeZone);
  return keysetPageOf(page.rows.map(toPersonDto), page, page, query.pageSize);
}

/** List names as the export writes them: read once per list, whatever the rows. */
function listNamer(): (ids: readonly string[]) => Promise<string> {
  const known = new Map<string, string>();
  return async (ids) => {
    const missing = ids.filter((id) => !known.has(id));
    if (missing.length > 0) {
      const names = await findListNames(missing);
      for (const id of missing) known.set(id, names.get(id) ?? id);
    }
    return ids.map((id) => known.get(id) ?? id).join('; ');
  };
}

/**
 * The matching people as CSV (UTF-8 with a BOM, formula-looking cells
 * quoted so a spreadsheet never runs them), streamed from the store.
 */
export function peopleCsvStream(
  query: Omit<PeopleListQuery, 'pageSize' | 'after' | 'before'>,
  timeZone: string,
  onError: (error: Error) => void,
): Readable {
  const csv = stringify({
    header: true,
    columns: [...PEOPLE_EXPORT_COLUMNS],
    bom: true,
    escape_formulas: true,
  });
  const rows = peopleInOrder(query, timeZone);
  const namesOf = listNamer();
  const source = Readable.from(
    (async function* () {
      for await (const person of rows) {
        yield {
          ...toPersonDto(person),
          sources: person.sources.join('; '),
          lists: await namesOf(person.listIds),
          tags: person.tags.join('; '),
          subscriberStatus: person.subscriberStatus ?? '',
          suppressed: person.suppressed ? 'yes' : 'no',
        };
      }
    })(),
  );
  source.on('error', onError);
  csv.on('error', onError);
  return source.pipe(csv);
}
