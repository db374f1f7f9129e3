import type { CampaignProgressDto } from '@agency/contracts';
import { readCampaignProgress, type Redis } from '@agency/platform';

/**
 * A campaign's send as the progress bar reads it (the campaigns module reads
 * the counts on the campaign and the rate from its keys in Redis).
 */
export function campaignProgress(
  redis: Redis,
  prefix: string,
  id: string,
  timeZone: string,
): Promise<CampaignProgressDto> {
  return readCampaignProgress(redis, prefix, id, timeZone);
}
