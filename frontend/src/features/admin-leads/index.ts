// Loaded lazily by app/.
export { AdminLeadsPage } from './admin-leads-page';
