import type { CampaignAudienceDto } from '@agency/contracts';
import {
  COUNT_FIELDS,
  countAudience,
  countEnquiryAudiences,
  excludedKeys,
  suppressedKeys,
  type KeptCounts,
} from '@agency/platform';
import { readFigures } from '../stats';

/**
 * How many distinct addresses each recipient type would reach if sent now,
 * as the send counts them, whoever unsubscribed or is on the suppression
 * list left out. Enquiry contacts (`contacts`, and `all` with the confirmed
 * subscribers) are read from the store as the send reads them, since only
 * those who ticked "send me news" are mailed, which the kept figures do not
 * know; with them, how many each leaves out for lack of consent, which a
 * lawful basis would add. The subscribers come from the kept figures
 * (@agency/platform's stats/kept-counts.ts), less the suppressed addresses
 * they still count; `lists` walks the members of the lists asked for as the
 * send does, and `segments` the consenting people of the segments asked for.
 */
export async function campaignAudience(
  kept: KeptCounts,
  listIds: readonly string[] = [],
  segmentIds: readonly string[] = [],
): Promise<CampaignAudienceDto> {
  const [suppressed, excluded] = await Promise.all([suppressedKeys(), excludedKeys()]);
  const [count, reach, lists, segments, enquiries] = await Promise.all([
    readFigures(() => kept.counts()),
    readFigures(() => kept.audienceReach(suppressed)),
    listIds.length > 0
      ? countAudience({ recipientType: 'lists', listIds: [...listIds] }, excluded)
      : 0,
    segmentIds.length > 0
      ? countAudience(
          { recipientType: 'segments', listIds: [], segmentIds: [...segmentIds] },
          excluded,
        )
      : 0,
    countEnquiryAudiences(excluded),
  ]);
  return {
    contacts: enquiries.contacts.reached,
    subscribers: count(COUNT_FIELDS.subscribers('confirmed')) - reach.subscribers,
    all: enquiries.all.reached,
    lists,
    segments,
    withoutConsent: {
      contacts: enquiries.contacts.withoutConsent,
      all: enquiries.all.withoutConsent,
    },
  };
}
