import type { CampaignDto } from '@agency/contracts';
import { RESULT_STATUSES } from '../api/dashboard-api';

/** The most recent sends the campaign charts compare. */
export const RESULT_CAMPAIGNS = 10;

/**
 * The last sends of a campaign list (newest first, drafts and scheduled ones
 * left out), oldest first: the charts read left to right in time.
 */
export function latestSendsOf(campaigns: readonly CampaignDto[]): CampaignDto[] {
  return campaigns
    .filter(({ status }) => (RESULT_STATUSES as readonly string[]).includes(status))
    .slice(0, RESULT_CAMPAIGNS)
    .reverse();
}
