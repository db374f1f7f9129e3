// Loaded lazily by app/.
export { AdminContactsPage } from './admin-contacts-page';
export { ContactsList } from './components/contacts-list';
