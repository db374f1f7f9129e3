export { activityLogRoutes } from './activity-log.routes';
// The log's collection belongs to the platform (the worker trims it); the API's callers keep these names.
export { recordActivity, redactAddressInActivity } from '@agency/platform';
