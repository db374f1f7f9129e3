// Loaded lazily by app/.
export { AdminAudiencePage } from './admin-audience-page';
