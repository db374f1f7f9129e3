export { activityLogRoutes } from './activity-log.routes';
export { recordActivity } from './activity-log.service';
export { ActivityLogModel } from './activity-log.model';
export { redactAddressInActivity } from './activity-erasure';
