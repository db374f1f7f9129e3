import { SENDING_STATUSES, type CampaignStatus } from '@agency/contracts';

/**
 * A send that has begun and not ended: being sent, or paused until it
 * resumes. Such a campaign cannot be deleted, nor its template changed, and
 * a cancel or the end of its round moves it on.
 */
export const UNFINISHED_STATUSES: readonly CampaignStatus[] = [...SENDING_STATUSES, 'paused'];
