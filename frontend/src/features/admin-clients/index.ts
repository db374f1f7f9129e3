// Loaded lazily by app/.
export { AdminClientsPage } from './admin-clients-page';
