export { contactRoutes, type ContactRoutesDeps } from './contact.routes';
export { storeContact } from './contact.service';
export { oweContactMails } from './contact-mail-state';
export * from './store';
export {
  CONTACT_COUNT_CAP,
  contactCursor,
  deleteContact,
  getContactDetail,
  listContacts,
  setContactStatus,
  type ContactTotals,
  type ContactViews,
} from './contact-admin.service';
export {
  allContactChanges,
  UNWATCHED_CONTACTS,
  type ContactChanges,
  type ContactFacts,
} from './contact-changes';
