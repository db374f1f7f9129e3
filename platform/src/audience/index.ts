/**
 * The audience module: mailing lists and their members, list imports and
 * their reports, the suppression list and the mail events that feed it, and
 * the audience a campaign mails. The API and the worker reach these
 * collections only through the commands and queries below, never their
 * models (tests: @agency/platform/testing/audience-models).
 */
export * from './audience';
export * from './import-file';
export * from './import-report-queries';
export * from './list-deletion';
export * from './list-import-records';
export * from './list-import-writes';
export {
  importCancelKey,
  previewRows,
  type ImportReport,
  type ListImport,
} from './list-import.model';
export * from './list-member-commands';
export * from './list-member-queries';
export { listMemberId, type ListMember } from './list-member.model';
export * from './mail-event-queries';
export type { MailEvent } from './mail-event.model';
export * from './mail-events.service';
export * from './mailing-list-commands';
export * from './mailing-list-queries';
export type { MailingList } from './mailing-list.model';
export * from './suppression-queries';
export * from './walk-keys';
export * from './suppression.service';
export type { Suppression } from './suppression.model';

export * from './list-existence';
export * from './person-audience-erasure';

export * from './people';
export * from './segments';
