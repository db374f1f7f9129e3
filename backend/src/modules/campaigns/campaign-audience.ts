import type { CampaignAudienceDto } from '@agency/contracts';
import { distinctContactEmails } from '../contact';
import { subscriberEmails } from '../newsletter';

/**
 * How many distinct addresses each recipient type would reach if sent now:
 * enquiry contacts, confirmed subscribers, or both (an address in both is
 * counted once). Whoever unsubscribed is left out of every type.
 */
export async function campaignAudience(): Promise<CampaignAudienceDto> {
  const [contacts, confirmed, unsubscribed] = await Promise.all([
    distinctContactEmails(),
    subscriberEmails('confirmed'),
    subscriberEmails('unsubscribed'),
  ]);
  const reachable = (emails: Iterable<string>) =>
    [...emails].filter((email) => !unsubscribed.has(email));
  const contactEmails = reachable(contacts);
  const subscriberEmailList = reachable(confirmed);
  return {
    contacts: contactEmails.length,
    subscribers: subscriberEmailList.length,
    all: new Set([...contactEmails, ...subscriberEmailList]).size,
  };
}
