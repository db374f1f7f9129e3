/**
 * The people view: one document per address that some record holds,
 * refreshed by every writer of those records and rebuilt daily.
 */
export * from './person-bulk-commands';
export * from './person-changes';
export * from './person-detail-queries';
export * from './person-import-refresh';
export { consentOf, personOfRecords } from './person-of-records';
export * from './person-queries';
export * from './person-rebuild';
export type {
  AddressRecords,
  MemberRecord,
  SubscriberRecord,
  SuppressionRecord,
} from './person-records';
export {
  PEOPLE_REFRESH_BATCH,
  refreshPeople,
  refreshPeopleAfterWrite,
  setPeopleRefreshLogger,
  type PeopleRefreshCounts,
} from './person-refresh';
export { PERSON_FILTER_FIELDS, type StoredPerson } from './person.model';
export * from './person-rule-reads';
export * from './person-stale';
