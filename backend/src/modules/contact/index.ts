export { contactRoutes, type ContactRoutesDeps } from './contact.routes';
export { storeContact } from './contact.service';
export { oweContactMails } from '@agency/platform';
export { findContactById, toContactDto } from './contact.service';
export {
  CONTACT_COUNT_CAP,
  contactCursor,
  deleteContact,
  getContactDetail,
  listContacts,
  setContactStatus,
  type ContactViews,
} from './contact-admin.service';
export { createContactListIndex, type ContactListIndex } from './contact-list-index';
