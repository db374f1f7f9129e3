/** The activity log: written by the API, read by admins, trimmed by the worker's retention. */
export {
  recordActivity,
  listActivity,
  ACTIVITY_COUNT_CAP,
  type ActivityEntry,
} from './activity-log.service';
export { redactAddressInActivity } from './activity-erasure';
export { removeActivityBefore } from './activity-retention';
