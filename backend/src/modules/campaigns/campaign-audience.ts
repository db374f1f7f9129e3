import type { AudienceTarget, CampaignAudienceDto } from '@agency/contracts';
import {
  COUNT_FIELDS,
  countAudience,
  excludedKeys,
  suppressedKeys,
  type KeptCounts,
} from '@agency/platform';
import { readFigures } from '../stats';

type EnquiryAudience = 'contacts' | 'all';

/** An audience with enquiry contacts, as a campaign without or with a lawful basis walks it. */
const enquiryTarget = (recipientType: EnquiryAudience, withBasis: boolean): AudienceTarget => ({
  recipientType,
  listIds: [],
  // Any basis reads every enquiry: which one is chosen changes who answers for it, not who is read.
  enquiryLawfulBasis: withBasis ? 'legitimate-interest' : null,
});

/**
 * An enquiry audience counted as the send walks it (only the contacts who
 * consented), and how many more addresses a lawful basis would add: those
 * left out for lack of consent.
 */
async function countEnquiryAudience(
  recipientType: EnquiryAudience,
  excluded: ReadonlySet<string>,
): Promise<{ reached: number; withoutConsent: number }> {
  const [reached, withBasis] = await Promise.all([
    countAudience(enquiryTarget(recipientType, false), excluded),
    countAudience(enquiryTarget(recipientType, true), excluded),
  ]);
  return { reached, withoutConsent: withBasis - reached };
}

/**
 * How many distinct addresses each recipient type would reach if sent now,
 * as the send counts them, whoever unsubscribed or is on the suppression
 * list left out. Enquiry contacts (`contacts`, and `all` with the confirmed
 * subscribers) are walked as the send walks them, since only those who
 * ticked "send me news" are mailed, which the kept figures do not know;
 * the subscribers come from the kept figures (@agency/platform's
 * stats/kept-counts.ts), less the suppressed addresses they still count;
 * `lists` walks the members of the lists asked for as the send does.
 */
export async function campaignAudience(
  kept: KeptCounts,
  listIds: readonly string[] = [],
): Promise<CampaignAudienceDto> {
  const [suppressed, excluded] = await Promise.all([suppressedKeys(), excludedKeys()]);
  const [count, reach, lists, contacts, all] = await Promise.all([
    readFigures(() => kept.counts()),
    readFigures(() => kept.audienceReach(suppressed)),
    listIds.length > 0
      ? countAudience({ recipientType: 'lists', listIds: [...listIds] }, excluded)
      : 0,
    countEnquiryAudience('contacts', excluded),
    countEnquiryAudience('all', excluded),
  ]);
  return {
    contacts: contacts.reached,
    subscribers: count(COUNT_FIELDS.subscribers('confirmed')) - reach.subscribers,
    all: all.reached,
    lists,
    withoutConsent: { contacts: contacts.withoutConsent, all: all.withoutConsent },
  };
}
