// Loaded lazily by app/.
export { AdminMediaPage } from './admin-media-page';
