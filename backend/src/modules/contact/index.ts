export { contactRoutes, type ContactRoutesDeps } from './contact.routes';
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
