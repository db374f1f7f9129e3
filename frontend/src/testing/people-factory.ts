import type { PersonDetailDto, PersonDto } from '@agency/contracts';

/** People API answers for frontend tests: valid records; override only what a test is about. */

const SEEN = '2026-05-04T09:30:00.000Z';

export function buildPerson(overrides: Partial<PersonDto> = {}): PersonDto {
  const email = overrides.email ?? 'amira@example.tn';
  return {
    key: email.toLowerCase(),
    email,
    firstName: 'Amira',
    lastName: 'Ben Salah',
    locale: 'fr',
    sources: ['subscriber', 'list'],
    listIds: [],
    tags: [],
    consent: 'given',
    subscriberStatus: 'confirmed',
    suppressed: false,
    firstSeenAt: SEEN,
    lastSeenAt: SEEN,
    ...overrides,
  };
}

/** A person's page with nothing in any section; tests fill the sections they are about. */
export function buildPersonDetail(overrides: Partial<PersonDetailDto> = {}): PersonDetailDto {
  return {
    person: buildPerson(),
    enquiries: [],
    subscription: null,
    memberships: [],
    suppression: null,
    consentEvents: [],
    mails: [],
    events: [],
    ...overrides,
  };
}
