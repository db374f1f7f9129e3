/** The contacts module's models, for tests' fixtures and assertions only. */
export { ContactModel, type Contact, type ContactDocument } from '../contact/contact.model';
export { ContactAddressModel } from '../contact/contact-address.model';
