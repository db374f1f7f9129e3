export { contactRoutes, type ContactRoutesDeps } from './contact.routes';
export { storeContact } from './contact.service';
export { oweContactMails } from '@agency/platform';
export { findContactById, toContactDto } from './contact.service';
export {
  contactArrivalTimes,
  contactCursor,
  countContacts,
  getContactDetail,
  listContacts,
  setContactStatus,
} from './contact-admin.service';
