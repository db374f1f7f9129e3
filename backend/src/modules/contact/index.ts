export { contactRoutes, type ContactRoutesDeps } from './contact.routes';
export { oweContactMails, storeContact } from '@agency/platform';
export { toContactDto } from './contact.service';
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
