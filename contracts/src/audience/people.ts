import { array, object, type InferType } from 'yup';
import { LOCALES, type Locale } from '../locales';
import type { Permission } from '../roles';
import type { SubscriberStatus } from '../newsletter/newsletter.dto';
import type { ServiceSlug } from '../services';
import { calendarDate } from '../validation/dates';
import { emailAddress } from '../validation/email-address';
import { message, oneOfText, optionalText, recordId, text } from '../validation/fields';
import { keysetListQuerySchema } from '../admin/list-query';
import type { LedgerState } from '../admin/campaigns';
import type { RecipientMailEventDto } from './mail-events';
import { MEMBER_TAG_MAX_LENGTH, type ListMemberConsentBasis } from './lists';
import type { SuppressionReason } from './suppressions';

/**
 * Everyone the product holds, one person per normalised address, whichever
 * records hold it: an enquiry (`contact`), a newsletter subscription
 * (`subscriber`, any status) or a list membership (`list`).
 */
export const PERSON_SOURCES = ['contact', 'subscriber', 'list'] as const;
export type PersonSource = (typeof PERSON_SOURCES)[number];

/**
 * Whether the person agreed to receive news: `given` (a confirmed
 * subscription, a ticked box on an enquiry, or a list membership with its
 * recorded basis), `withdrawn` (unsubscribed) or `none` (only enquiries
 * without consent, or a sign-up never confirmed).
 */
export const PERSON_CONSENT_STATES = ['given', 'withdrawn', 'none'] as const;
export type PersonConsentState = (typeof PERSON_CONSENT_STATES)[number];

/**
 * Who sees people, acts on them and exports them: the roles that manage
 * lists. A person's page shows suppressions and the campaign mails sent to
 * the address, which only those roles read elsewhere.
 */
export const PEOPLE_PERMISSION: Permission = 'lists:write';

export const PERSON_SORT_FIELDS = ['email', 'firstSeenAt'] as const;

/**
 * The people screen and its export: paged by keyset, newest first by
 * default. `search` matches the start of the address or of a name; a search
 * starting with `@` matches the address's domain (`@example.com`, or its
 * start: `@exa`). Each filter narrows; `since`/`until` bound the first time
 * the address was seen (days on the agency's clock, both included).
 */
export const peopleListQuerySchema = keysetListQuerySchema({
  sortFields: PERSON_SORT_FIELDS,
  defaultSort: '-firstSeenAt',
  filters: {
    listId: recordId().optional(),
    tag: optionalText(MEMBER_TAG_MAX_LENGTH),
    locale: oneOfText(LOCALES).optional(),
    source: oneOfText(PERSON_SOURCES).optional(),
    consent: oneOfText(PERSON_CONSENT_STATES).optional(),
    suppressed: oneOfText(['yes', 'no'] as const).optional(),
    since: calendarDate().optional(),
    until: calendarDate().optional(),
  },
});
export type PeopleListQuery = InferType<typeof peopleListQuerySchema>;

/** One person as a row of the people screen. */
export interface PersonDto {
  /** The normalised address: the person's id, in `/api/admin/people/:email` too. */
  key: string;
  /** The address as last written by one of its records. */
  email: string;
  firstName: string;
  lastName: string;
  locale: Locale;
  sources: PersonSource[];
  /** The lists it is a member of (ids), and the union of its members' tags. */
  listIds: string[];
  tags: string[];
  consent: PersonConsentState;
  subscriberStatus: SubscriberStatus | null;
  /** On the suppression list: never mailed, whatever else holds it. */
  suppressed: boolean;
  /** When the first of its records was written, and the latest change to any. */
  firstSeenAt: string;
  lastSeenAt: string;
}

/** The fields of a person that the people screen shows as they are stored. */
type PersonFieldAsStored = Exclude<keyof PersonDto, 'key' | 'firstSeenAt' | 'lastSeenAt'>;

/**
 * Those fields, once: the API copies them from the stored person by this
 * list (nothing else it stores leaks into a row), and the stored person's
 * type (platform's person.model.ts) is the DTO's with what only the store
 * keeps. A field added to PersonDto and not here fails the API's typecheck.
 */
export const PERSON_FIELDS_AS_STORED = [
  'email',
  'firstName',
  'lastName',
  'locale',
  'sources',
  'listIds',
  'tags',
  'consent',
  'subscriberStatus',
  'suppressed',
] as const satisfies readonly PersonFieldAsStored[];

/** The columns of the people CSV export, in order. */
export const PEOPLE_EXPORT_COLUMNS = [
  'email',
  'firstName',
  'lastName',
  'locale',
  'sources',
  'lists',
  'tags',
  'consent',
  'subscriberStatus',
  'suppressed',
  'firstSeenAt',
  'lastSeenAt',
] as const;

/** What one consent event on a person's page says happened. */
export const CONSENT_EVENT_KINDS = [
  'subscription-requested',
  'subscription-confirmed',
  'unsubscribed',
  'enquiry-consent',
  'list-import',
  'list-added-by-staff',
  'list-sign-up',
  'suppressed',
] as const;
export type ConsentEventKind = (typeof CONSENT_EVENT_KINDS)[number];

export interface ConsentEventDto {
  kind: ConsentEventKind;
  at: string;
  /** Where it came from: a list's name, a file, a form, a suppression reason... */
  detail: string | null;
}

/** A person's page: every record that holds the address, and what was mailed to it. */
export interface PersonDetailDto {
  person: PersonDto;
  enquiries: {
    id: string;
    createdAt: string;
    service: ServiceSlug;
    status: string;
  }[];
  subscription: {
    status: SubscriberStatus;
    locale: Locale;
    createdAt: string;
    confirmedAt: string | null;
    unsubscribedAt: string | null;
  } | null;
  memberships: {
    list: { id: string; name: string };
    tags: string[];
    basis: ListMemberConsentBasis;
    at: string;
  }[];
  suppression: { reason: SuppressionReason; at: string; detail: string | null } | null;
  consentEvents: ConsentEventDto[];
  /** The campaign mails sent to the address, newest first (at most PERSON_MAILS_MAX). */
  mails: {
    campaign: { id: string; name: string };
    state: LedgerState;
    at: string;
    reason: string | null;
  }[];
  /** Bounces and complaints of the address, newest first. */
  events: (RecipientMailEventDto & { campaign: { id: string; name: string | null } | null })[];
}

/** How many of a person's mails and events the page lists. */
export const PERSON_MAILS_MAX = 100;

export const PEOPLE_BULK_ACTIONS = ['add-to-list', 'remove-from-list', 'tag', 'untag'] as const;
export type PeopleBulkAction = (typeof PEOPLE_BULK_ACTIONS)[number];

/** People one bulk action may name at once. */
export const PEOPLE_BULK_MAX = 500;

/**
 * POST /api/admin/people/bulk: one action on the people chosen on the
 * screen. `add-to-list` and `remove-from-list` name a list; `tag` and
 * `untag` a tag and a list (tags belong to a list membership).
 */
export const peopleBulkSchema = object({
  action: oneOfText(PEOPLE_BULK_ACTIONS).required(message('required')),
  emails: array(emailAddress())
    .typeError(message('mustBeList'))
    .required(message('required'))
    .min(1, message('required'))
    .max(PEOPLE_BULK_MAX, message('maxItems', { max: PEOPLE_BULK_MAX })),
  listId: recordId().required(message('required')),
  tag: text(MEMBER_TAG_MAX_LENGTH).when('action', {
    is: (action: string) => action === 'tag' || action === 'untag',
    then: (schema) => schema.required(message('required')),
    otherwise: (schema) => schema.optional().strip(),
  }),
});
export type PeopleBulkInput = InferType<typeof peopleBulkSchema>;

export interface PeopleBulkResultDto {
  /** People the action changed. */
  changed: number;
  /** People it left as they were (already in the list, not in it, already tagged...). */
  unchanged: number;
}
