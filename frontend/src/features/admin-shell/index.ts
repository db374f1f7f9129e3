// Loaded lazily by app/ (the admin area's frame): nothing here is in the public bundle.
export { AdminLayout } from './admin-layout';
export { AdminNotFound } from './admin-not-found';
