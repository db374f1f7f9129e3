// The module's surface without HTTP: what the worker may reach through src/store.ts.
export { findContactById, toContactDto } from './contact.service';
export {
  contactForMail,
  contactMailStatuses,
  findContactForMail,
  keepStoredContacts,
  markContactAcknowledgementFailed,
  markContactAcknowledgementSent,
  markContactMailFailed,
  markContactMailSent,
  settleContactMails,
  type ContactMailStatuses,
} from './contact-mail-state';
export { ContactModel, type Contact, type ContactDocument } from './contact.model';
export { forEachStoredContact } from './contact-admin.service';
export { withSearchKeys } from './contact-search';
export type { ContactChanges, ContactFacts } from './contact-changes';
export type { ContactTotals } from './contact-admin.service';
export {
  createContactListIndex,
  type ContactListIndex,
  type IndexSnapshot,
} from './contact-list-index';
