import type { CampaignAudienceDto } from '@agency/contracts';
import { COUNT_FIELDS, countAudience, suppressedKeys, type KeptCounts } from '@agency/platform';
import { readFigures } from '../stats';

/**
 * How many distinct addresses each recipient type would reach if sent now,
 * as the send counts them: enquiry contacts, confirmed subscribers, or both
 * (an address in both counted once), whoever unsubscribed or is on the
 * suppression list left out. The three types come from the kept figures
 * (@agency/platform's stats/kept-counts.ts), less the suppressed addresses
 * they still count (the suppression list is small beside the audience);
 * `lists` walks the members of the lists asked for as the send does.
 */
export async function campaignAudience(
  kept: KeptCounts,
  listIds: readonly string[] = [],
): Promise<CampaignAudienceDto> {
  const suppressed = await suppressedKeys();
  const [count, reach, lists] = await Promise.all([
    readFigures(() => kept.counts()),
    readFigures(() => kept.audienceReach(suppressed)),
    listIds.length > 0 ? countAudience({ recipientType: 'lists', listIds: [...listIds] }) : 0,
  ]);
  return {
    contacts: count(COUNT_FIELDS.audienceContacts) - reach.contacts,
    subscribers: count(COUNT_FIELDS.subscribers('confirmed')) - reach.subscribers,
    all: count(COUNT_FIELDS.audienceAll) - reach.all,
    lists,
  };
}
