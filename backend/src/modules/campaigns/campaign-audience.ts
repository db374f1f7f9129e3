import type { CampaignAudienceDto } from '@agency/contracts';
import { COUNT_FIELDS, type KeptCounts } from '@agency/platform';
import { readFigures } from '../stats';

/**
 * How many distinct addresses each recipient type would reach if sent now:
 * enquiry contacts, confirmed subscribers, or both (an address in both is
 * counted once). Whoever unsubscribed is left out of every type. Read from
 * the kept figures, which follow each address in and out of each type as
 * enquiries and subscriptions change (@agency/platform's stats/kept-counts.ts): one read,
 * however many addresses there are.
 */
export async function campaignAudience(kept: KeptCounts): Promise<CampaignAudienceDto> {
  const count = await readFigures(() => kept.counts());
  return {
    contacts: count(COUNT_FIELDS.audienceContacts),
    subscribers: count(COUNT_FIELDS.subscribers('confirmed')),
    all: count(COUNT_FIELDS.audienceAll),
  };
}
