// Loaded lazily by app/.
export { AdminUsersPage } from './admin-users-page';
