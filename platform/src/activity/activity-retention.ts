import { ActivityLogModel } from './activity-log.model';
import { removeInPages } from '../retention-pages';

/**
 * The log's retention: every entry written before `cutoff` deleted, a page
 * of ids at a time (retention-pages.ts). Answers how many went.
 */
export function removeActivityBefore(cutoff: Date, pageSize?: number): Promise<number> {
  return removeInPages(ActivityLogModel, { time: { $lt: cutoff } }, pageSize);
}
