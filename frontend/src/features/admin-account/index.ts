// The pages are imported lazily by app/ so they stay out of the public bundle;
// only the tiny /admin redirect is imported eagerly.
export { AdminIndexRedirect } from './admin-index-redirect';
