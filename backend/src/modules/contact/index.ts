export { contactRoutes, type ContactRoutesDeps } from './contact.routes';
export { storeContact } from './contact.service';
export { oweContactMails } from './contact-mail-state';
export * from './store';
export {
  contactArrivalTimes,
  contactCursor,
  countContacts,
  distinctContactEmails,
  getContactDetail,
  listContacts,
  setContactStatus,
} from './contact-admin.service';
