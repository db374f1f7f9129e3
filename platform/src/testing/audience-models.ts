/**
 * The audience's and the newsletter's models, for tests' fixtures and
 * assertions only: the API and the worker go through the modules' commands
 * and queries (platform/src/audience, platform/src/newsletter).
 */
export { ImportReportModel, ListImportModel } from '../audience/list-import.model';
export { ListMemberModel } from '../audience/list-member.model';
export { MailEventModel } from '../audience/mail-event.model';
export { MailingListModel } from '../audience/mailing-list.model';
export { SuppressionModel } from '../audience/suppression.model';
export { SubscriberModel } from '../newsletter/subscriber.model';
export { PersonModel } from '../audience/people/person.model';
export { SegmentModel } from '../audience/segments/segment.model';
