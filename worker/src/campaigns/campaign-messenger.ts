import type { CampaignMail } from '@agency/platform';
import type { CampaignRecipient } from '@agency/contracts';
import type { SendTracking } from './campaign-tracking-urls';

/** Who one mail is for: the address, and what it is personalised with. */
export type MailRecipient = Pick<
  CampaignRecipient,
  'email' | 'firstName' | 'lastName' | 'locale' | 'source'
>;

/** A campaign's mail prepared once, then sent to each of its recipients. */
export interface PreparedCampaign {
  /**
   * Resolves once the mail is accepted; rejects with the refusal otherwise.
   * `returnPath`, when given, is the envelope sender that bounces come back to.
   */
  send(recipient: MailRecipient, messageId: string, returnPath?: string): Promise<void>;
}

/**
 * What the campaign engine needs from the mail side: a campaign's mail
 * prepared once, sends, and which refusals are final. `smtp-campaign-messenger.ts`
 * implements it over SMTP.
 */
export interface CampaignMessenger {
  /**
   * `test`: a test send, whose unsubscribe links lead to the page that says
   * so rather than carry a token that works. `tracking`: the campaign's
   * tracking as its send fixed it; each recipient's mail then carries their
   * own tracking links and pixel. A test send is given none. `campaignId`:
   * the campaign the mail is of, named in its unsubscribe links so that
   * leaving through them counts in its report.
   */
  prepare(
    mail: CampaignMail,
    options?: { test?: boolean; tracking?: SendTracking | undefined; campaignId?: string },
  ): PreparedCampaign;
  /**
   * The campaign's link table as this messenger's mail of it renders (its
   * sender's name, the site's subscription pages left out), built when the
   * send starts and stored: each link's index is its place.
   */
  trackedLinks(mail: CampaignMail): string[];
  /** A refusal that trying again will not change (a 5xx reply): the recipient failed. */
  isPermanentFailure(error: unknown): boolean;
  /**
   * The server could not be reached (refused, timed out, dropped): the
   * recipient is not at fault, and the batch waits for the server.
   */
  isUnreachable(error: unknown): boolean;
  /** What staff see of a refusal: the server's own words when it replied. */
  failureReason(error: unknown): string;
  /** Ends the messenger's connections once the sends in hand are answered. */
  close(): Promise<void>;
}
