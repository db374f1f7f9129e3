/**
 * The contacts module: the enquiries the website stores, their narrow
 * address copies, their mails' state in the outbox, their search keys and
 * the list's index on the embedded store. It alone reads and writes the
 * contacts and contact addresses collections.
 */
export {
  countContactsUpTo,
  findContactById,
  findContactsByIds,
  findContactsPage,
  openContactsInListOrder,
  type StoredContact,
} from './contact-admin-queries';
export { removeContact, storeContact, updateContactStatus } from './contact-commands';
export type { ContactRequestContext, ContactSubmission } from './contact-commands';
export * from './contact-addresses';
export * from './contact-mail-state';
export * from './contact-by-address';
export * from './contact-changes';
export * from './contact-search';
export * from './contact-index-sets';
export * from './stored-contacts';
export * from './contact-erasure';
export { anonymiseEnquiriesBefore } from './contact-retention';
