import { PersonModel } from './person.model';

/** What a campaign needs of a person to mail them. */
export interface PersonForMail {
  _id: string;
  email: string;
  firstName: string;
  lastName: string;
  locale: string;
}

/**
 * How many people a filter built by another module (a segment's rule)
 * matches: the filter must name indexed fields with operators marked
 * trusted, as segment-filter.ts builds them.
 */
export async function countPeopleWhere(filter: Record<string, unknown>): Promise<number> {
  return PersonModel.countDocuments(filter);
}

/** The people such a filter matches, in the store's order, read as a stream. */
export async function* peopleWhere(filter: Record<string, unknown>): AsyncGenerator<PersonForMail> {
  yield* PersonModel.find(filter, { email: 1, firstName: 1, lastName: 1, locale: 1 })
    .lean<PersonForMail[]>()
    .cursor({ batchSize: 1000 });
}
