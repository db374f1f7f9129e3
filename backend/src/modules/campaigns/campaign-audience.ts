import type { CampaignAudienceDto } from '@agency/contracts';
import { countAudience, excludedKeys } from '@agency/platform';

/**
 * How many distinct addresses each recipient type would reach if sent now,
 * counted by the very walk the send makes (an address in two sources counted
 * once, the suppressed and the unsubscribed left out), so the number shown
 * before sending is the number sent. `lists` counts the lists asked for.
 */
export async function campaignAudience(listIds: readonly string[]): Promise<CampaignAudienceDto> {
  const excluded = await excludedKeys();
  const count = (recipientType: keyof CampaignAudienceDto) =>
    countAudience({ recipientType, listIds: [...listIds] }, excluded);
  const [contacts, subscribers, all, lists] = await Promise.all([
    count('contacts'),
    count('subscribers'),
    count('all'),
    count('lists'),
  ]);
  return { contacts, subscribers, all, lists };
}
