// Only the tiny redirect is public here: the pages are imported lazily by app/router.tsx
// so they stay out of the public bundle.
export { AdminIndexRedirect } from './admin-index-redirect';
