import { Schema, model, type mongo } from 'mongoose';
import {
  LAST_MAIL_OUTCOMES,
  LOCALES,
  PERSON_CONSENT_STATES,
  PERSON_SOURCES,
  SUBSCRIBER_STATUSES,
  type LastMailOutcome,
  type PersonDto,
  type ServiceSlug,
} from '@agency/contracts';

/**
 * One person per normalised address (the `_id`): what the people screen
 * shows and filters on, recomputed from the records that hold the address
 * (enquiries, the subscription, list memberships, the suppression) whenever
 * one of them changes (person-refresh.ts), and by the daily rebuild
 * (person-rebuild.ts). Nothing else writes it, and nothing reads it as the
 * truth of those records: it is a view, kept because a page of people
 * across four collections cannot be read in one query on either store.
 */
const personSchema = new Schema(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true },
    firstName: { type: String, default: '' },
    lastName: { type: String, default: '' },
    locale: { type: String, required: true, enum: LOCALES },
    sources: { type: [String], enum: PERSON_SOURCES, default: [] },
    listIds: { type: [String], default: [] },
    tags: { type: [String], default: [] },
    consent: { type: String, required: true, enum: PERSON_CONSENT_STATES },
    subscriberStatus: { type: String, enum: SUBSCRIBER_STATUSES, default: null },
    suppressed: { type: Boolean, required: true },
    firstSeenAt: { type: Date, required: true },
    lastSeenAt: { type: Date, required: true },
    // The address's domain and each one it belongs to, down to two labels,
    // searched by prefix: "@acme" finds sales@eu.acme.tn.
    domains: { type: [String], default: [] },
    // Names and address as searched (contact-search.ts's keys): any one's start matches.
    searchTerms: { type: [String], default: [] },
    // What segments read besides the screen's filters: the services its
    // enquiries asked for, and the bounce or complaint its suppression records.
    services: { type: [String], default: [] },
    lastMailOutcome: { type: String, enum: LAST_MAIL_OUTCOMES, default: 'none' },
  },
  { versionKey: false },
);

// The default order and each filter in it, the address breaking ties as the
// keyset pages do; the address order is the `_id` index itself. At most one
// array field per index (MongoDB refuses a compound index over two).
personSchema.index({ firstSeenAt: -1, _id: -1 });
for (const filter of ['listIds', 'tags', 'locale', 'sources', 'consent', 'suppressed']) {
  personSchema.index({ [filter]: 1, firstSeenAt: -1, _id: -1 });
}
// A segment's conditions on the fields the screen does not filter by.
for (const field of ['services', 'lastMailOutcome']) {
  personSchema.index({ [field]: 1, firstSeenAt: -1, _id: -1 });
}
personSchema.index({ searchTerms: 1 });
personSchema.index({ domains: 1 });

export const PersonModel = model('Person', personSchema);

/**
 * A person as stored (and as the driver reads it): the people screen's row
 * (PersonDto) with its address as the `_id` and its days as dates, and what
 * only search and segments read.
 */
export interface StoredPerson extends Omit<PersonDto, 'key' | 'firstSeenAt' | 'lastSeenAt'> {
  _id: string;
  firstSeenAt: Date;
  lastSeenAt: Date;
  domains: string[];
  searchTerms: string[];
  services: ServiceSlug[];
  lastMailOutcome: LastMailOutcome;
}

/** The collection as the driver sees it: its `_id`s are addresses. */
export const people = () => PersonModel.collection as unknown as mongo.Collection<StoredPerson>;

/** The fields each filter of the screen reads: the indexes above must serve each. */
export const PERSON_FILTER_FIELDS = [
  'listIds',
  'tags',
  'locale',
  'sources',
  'consent',
  'suppressed',
  'searchTerms',
  'domains',
] as const;
