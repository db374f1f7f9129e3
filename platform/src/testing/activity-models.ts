/** The activity log's model, for tests' fixtures and assertions only. */
export { ActivityLogModel, type ActivityLog } from '../activity/activity-log.model';
