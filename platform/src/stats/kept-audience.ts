import {
  reachesEnquiries,
  type AudienceTarget,
  type EnquiryRecipientType,
} from '@agency/contracts';
import { suppressedKeys } from '../audience/audience';
import { COUNT_FIELDS, FiguresUnavailableError, type KeptCounts } from './kept-counts';

/**
 * How many distinct addresses a send to everyone of a type would reach now,
 * from the kept figures: no walk of the audience. Enquiry contacts are
 * counted twice there: those whose enquiry ticked "send me news" (whom a
 * campaign mails) and all of them (whom a lawful basis lets it mail).
 */
export interface KeptAudience {
  contacts: number;
  subscribers: number;
  all: number;
  /** How many each type leaves out for lack of consent. */
  withoutConsent: Record<EnquiryRecipientType, number>;
}

/**
 * The kept figures less the suppressed addresses they still count, as the
 * send leaves them out. Throws FiguresUnavailableError while Redis does not answer.
 */
export async function keptAudience(
  kept: KeptCounts,
  suppressed: readonly string[],
): Promise<KeptAudience> {
  const [count, reach] = await Promise.all([kept.counts(), kept.audienceReach(suppressed)]);
  const reached = (field: string, suppressedAmong: number) => count(field) - suppressedAmong;
  const contacts = reached(COUNT_FIELDS.audienceContactsConsented, reach.consentedContacts);
  const all = reached(COUNT_FIELDS.audienceAllConsented, reach.consentedAll);
  return {
    contacts,
    subscribers: reached(COUNT_FIELDS.subscribers('confirmed'), reach.subscribers),
    all,
    withoutConsent: {
      contacts: reached(COUNT_FIELDS.audienceContacts, reach.contacts) - contacts,
      all: reached(COUNT_FIELDS.audienceAll, reach.all) - all,
    },
  };
}

/**
 * A send's audience as the kept figures count it, for the progress bar's
 * total while the dispatch walks the audience (its own count replaces it
 * once the walk ends). On the embedded store a second walk only to count
 * costs as much as the send's own (about a third of the store's CPU per
 * mail at 20,000 recipients). Undefined when the figures cannot say: a send
 * to lists or segments (the figures do not keep them), Redis not answering,
 * or figures that count nobody.
 */
export async function keptAudienceTotal(
  kept: KeptCounts,
  target: AudienceTarget,
): Promise<number | undefined> {
  const { recipientType } = target;
  if (recipientType !== 'subscribers' && !reachesEnquiries(recipientType)) return undefined;
  let audience: KeptAudience;
  try {
    audience = await keptAudience(kept, await suppressedKeys());
  } catch (error) {
    if (error instanceof FiguresUnavailableError) return undefined;
    throw error;
  }
  const total =
    recipientType === 'subscribers'
      ? audience.subscribers
      : audience[recipientType] +
        (target.enquiryLawfulBasis ? audience.withoutConsent[recipientType] : 0);
  // None counted: figures not recounted yet (people stored behind the API),
  // or nobody to mail, which a walk then finds at once.
  return total > 0 ? total : undefined;
}
