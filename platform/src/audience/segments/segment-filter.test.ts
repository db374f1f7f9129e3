import type { SegmentCondition, SegmentRule } from '@agency/contracts';
import { useFileDatabase } from '../../testing/file-database';
import { ContactModel } from '../../contact/contact.model';
import { withSearchKeys } from '../../contact/contact-search';
import { refreshPeople } from '../people/person-refresh';
import { PersonModel, people, type StoredPerson } from '../people/person.model';
import { SuppressionModel } from '../suppression.model';
import { segmentFilterOf, type SegmentClock } from './segment-filter';

const LIST_A = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const LIST_B = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const clock: SegmentClock = { timeZone: 'Africa/Tunis', now: new Date('2026-06-30T12:00:00Z') };

function person(key: string, fields: Partial<StoredPerson>): StoredPerson {
  return {
    _id: key,
    email: key,
    firstName: '',
    lastName: '',
    locale: 'en',
    sources: ['contact'],
    listIds: [],
    tags: [],
    consent: 'given',
    subscriberStatus: null,
    suppressed: false,
    firstSeenAt: new Date('2026-01-01T10:00:00Z'),
    lastSeenAt: new Date('2026-01-01T10:00:00Z'),
    domains: [],
    searchTerms: [],
    services: [],
    lastMailOutcome: 'none',
    ...fields,
  };
}

/** Tunis is UTC+1: 23:30 UTC on 31 May is already 1 June there. */
const PEOPLE = [
  person('amel@x.tn', {
    locale: 'fr',
    tags: ['vip'],
    listIds: [LIST_A],
    services: ['web-design'],
    firstSeenAt: new Date('2026-05-31T23:30:00Z'),
  }),
  person('badr@x.tn', {
    locale: 'ar',
    tags: ['vip', 'press'],
    listIds: [LIST_B],
    sources: ['subscriber'],
    lastMailOutcome: 'bounced',
    firstSeenAt: new Date('2026-06-25T08:00:00Z'),
  }),
  person('chloe@x.tn', {
    services: ['branding', 'analytics'],
    lastMailOutcome: 'complained',
    firstSeenAt: new Date('2025-12-01T08:00:00Z'),
  }),
];

async function matching(rule: SegmentRule): Promise<string[]> {
  const found = await PersonModel.find(segmentFilterOf(rule, clock)).lean<StoredPerson[]>();
  return found.map(({ _id }) => _id).sort();
}

const only = (condition: SegmentCondition): Promise<string[]> =>
  matching({ match: 'all', conditions: [condition] });

describe('a segment rule compiled to a people filter', () => {
  useFileDatabase('segment-filter');

  beforeAll(async () => {
    await PersonModel.deleteMany({});
    await people().insertMany(PEOPLE);
  });

  it.each<[SegmentCondition, string[]]>([
    [{ field: 'locale', op: 'is', value: 'fr' }, ['amel@x.tn']],
    [{ field: 'locale', op: 'isNot', value: 'fr' }, ['badr@x.tn', 'chloe@x.tn']],
    [{ field: 'locale', op: 'anyOf', value: ['fr', 'ar'] }, ['amel@x.tn', 'badr@x.tn']],
    [{ field: 'locale', op: 'noneOf', value: ['fr', 'ar'] }, ['chloe@x.tn']],
    [{ field: 'tags', op: 'anyOf', value: ['press'] }, ['badr@x.tn']],
    [{ field: 'tags', op: 'noneOf', value: ['vip'] }, ['chloe@x.tn']],
    [{ field: 'listIds', op: 'anyOf', value: [LIST_A, LIST_B] }, ['amel@x.tn', 'badr@x.tn']],
    [{ field: 'listIds', op: 'noneOf', value: [LIST_A] }, ['badr@x.tn', 'chloe@x.tn']],
    [{ field: 'services', op: 'anyOf', value: ['analytics'] }, ['chloe@x.tn']],
    [{ field: 'services', op: 'noneOf', value: ['web-design'] }, ['badr@x.tn', 'chloe@x.tn']],
    [{ field: 'source', op: 'anyOf', value: ['subscriber'] }, ['badr@x.tn']],
    [{ field: 'source', op: 'noneOf', value: ['subscriber'] }, ['amel@x.tn', 'chloe@x.tn']],
    [{ field: 'lastMailOutcome', op: 'is', value: 'bounced' }, ['badr@x.tn']],
    [{ field: 'lastMailOutcome', op: 'isNot', value: 'none' }, ['badr@x.tn', 'chloe@x.tn']],
    [{ field: 'lastMailOutcome', op: 'anyOf', value: ['complained'] }, ['chloe@x.tn']],
    // Amel arrived on 1 June on the agency's clock, though 31 May in UTC.
    [{ field: 'firstSeenAt', op: 'before', value: '2026-06-01' }, ['chloe@x.tn']],
    [{ field: 'firstSeenAt', op: 'after', value: '2026-05-31' }, ['amel@x.tn', 'badr@x.tn']],
    [{ field: 'firstSeenAt', op: 'after', value: '2026-06-01' }, ['badr@x.tn']],
    [{ field: 'firstSeenAt', op: 'withinLastDays', value: 7 }, ['badr@x.tn']],
  ])('%j matches %j', async (condition, expected) => {
    expect(await only(condition)).toEqual(expected);
  });

  it('matches all conditions, or any of them', async () => {
    const conditions: SegmentCondition[] = [
      { field: 'tags', op: 'anyOf', value: ['vip'] },
      { field: 'locale', op: 'is', value: 'ar' },
    ];
    expect(await matching({ match: 'all', conditions })).toEqual(['badr@x.tn']);
    expect(await matching({ match: 'any', conditions })).toEqual(['amel@x.tn', 'badr@x.tn']);
  });

  it('takes a value shaped as an operator as the text it is, never as an operator', async () => {
    const injected = { $ne: 'x' } as unknown as string;
    expect(await only({ field: 'locale', op: 'is', value: injected })).toEqual([]);
  });

  it('reads each condition through an index on MongoDB', () => {
    const indexed = PersonModel.schema
      .indexes()
      .map(([fields]) => Object.keys(fields)[0] as string);
    for (const field of ['locale', 'tags', 'listIds', 'services', 'sources', 'lastMailOutcome']) {
      expect(indexed).toContain(field);
    }
    expect(indexed).toContain('firstSeenAt');
  });
});

describe('what the people view keeps for segments', () => {
  useFileDatabase('segment-person-fields');

  it('keeps the services asked for and the bounce or complaint held', async () => {
    await ContactModel.insertMany(
      (['web-design', 'branding'] as const).map((service) =>
        withSearchKeys({
          firstName: 'Dali',
          lastName: 'D',
          email: 'dali@x.tn',
          service,
          message: 'Hello there',
        }),
      ),
    );
    await SuppressionModel.create({
      _id: 'dali@x.tn',
      email: 'Dali@x.tn',
      reason: 'complaint',
      source: 'ses',
      at: new Date(),
    });
    await refreshPeople(['dali@x.tn']);
    expect(await PersonModel.findById('dali@x.tn').lean<StoredPerson>()).toMatchObject({
      services: ['branding', 'web-design'],
      lastMailOutcome: 'complained',
    });
  });
});
