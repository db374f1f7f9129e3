import {
  campaignLinkTable,
  compileCampaignMail,
  senderNameOf,
  signManageToken,
  signUnsubscribeToken,
} from '@agency/platform';
import type { Locale } from '@agency/contracts';
import {
  managePageUrl,
  oneClickUnsubscribeUrl,
  testSendManageUrl,
  testSendUnsubscribeUrl,
  tokenLinks,
  unsubscribePageUrl,
} from '../mail/newsletter-links';
import {
  isConnectionFailure,
  isPermanentSmtpFailure,
  smtpFailureReason,
} from '../mail/smtp-failure';
import type { CampaignMessenger } from './campaign-messenger';
import {
  InvalidRecipientError,
  compileCampaignMime,
  type CampaignMime,
  type RecipientParts,
} from './campaign-mime';
import { recipientTrackingUrls } from './campaign-tracking-urls';
import type { CampaignTransport } from './campaign-transport';

export interface SmtpCampaignMessengerOptions {
  transport: CampaignTransport;
  mailFrom: string;
  /** The public website, for the unsubscribe and manage links. */
  siteUrl: string;
  mailLinkSecret: string;
}

/** A recipient's own links: the footer's two and the List-Unsubscribe header's. */
type FooterLinks = Pick<
  RecipientParts,
  'unsubscribePageUrl' | 'listUnsubscribeUrl' | 'managePageUrl'
>;

/**
 * The one place a campaign mail's personal links are made. The campaign's id
 * in the unsubscribe token: an unsubscribe through this mail counts in its
 * report. The manage token names the address alone. A test send's links
 * carry no token: the unsubscribe links open the page that says it was a
 * test (a mailbox's one-click POST to it changes nothing, and the staff
 * member stays subscribed), and the manage link opens nobody's preferences.
 * Each page's address is made once per language, and each mail's tokens set into it.
 */
function footerLinksOf(siteUrl: string, mailLinkSecret: string) {
  const oneClick = tokenLinks((token) => oneClickUnsubscribeUrl(siteUrl, token));
  const pages = new Map<
    Locale,
    { unsubscribe: (token: string) => string; manage: typeof oneClick }
  >();
  const pagesIn = (locale: Locale) => {
    let links = pages.get(locale);
    if (!links) {
      links = {
        unsubscribe: tokenLinks((token) => unsubscribePageUrl(siteUrl, token, locale)),
        manage: tokenLinks((token) => managePageUrl(siteUrl, token, locale)),
      };
      pages.set(locale, links);
    }
    return links;
  };
  return {
    recipient(email: string, locale: Locale, campaignId: string | undefined): FooterLinks {
      const token = signUnsubscribeToken(email, mailLinkSecret, campaignId);
      const links = pagesIn(locale);
      return {
        unsubscribePageUrl: links.unsubscribe(token),
        listUnsubscribeUrl: oneClick(token),
        managePageUrl: links.manage(signManageToken(email, mailLinkSecret)),
      };
    },
    test(locale: Locale): FooterLinks {
      const page = testSendUnsubscribeUrl(siteUrl, locale);
      return {
        unsubscribePageUrl: page,
        listUnsubscribeUrl: page,
        managePageUrl: testSendManageUrl(siteUrl, locale),
      };
    },
  };
}

/**
 * Campaign mail over SMTP: the campaign compiled once (each language's mail
 * in its template, then one MIME frame per language as recipients need it),
 * each recipient's message built into the frame of their language with their
 * values, the localised footer and the List-Unsubscribe headers, and sent raw
 * over the campaign's own pooled connections.
 */
export function createSmtpCampaignMessenger(
  options: SmtpCampaignMessengerOptions,
): CampaignMessenger {
  const { transport, mailFrom, siteUrl, mailLinkSecret } = options;
  const senderName = senderNameOf(mailFrom);
  const trackingUrls = recipientTrackingUrls(siteUrl, mailLinkSecret);
  const footerLinks = footerLinksOf(siteUrl, mailLinkSecret);
  return {
    prepare(mail, { test = false, tracking, campaignId } = {}) {
      // A test send is never counted: it carries no tracking, whatever it is given.
      const tracked = test ? undefined : tracking;
      const compiled = compileCampaignMail(mail, {
        senderName,
        ...(tracked ? { tracking: tracked } : {}),
      });
      const frames = new Map<Locale, CampaignMime>();
      // The campaign's own sender from the agency's settings; a mail without one keeps MAIL_FROM.
      const sender = mail.sender ?? { from: mailFrom, replyTo: undefined };
      const frameOf = (locale: Locale) => {
        let frame = frames.get(locale);
        if (!frame) {
          frame = compileCampaignMime(compiled, locale, sender.from, sender.replyTo);
          frames.set(locale, frame);
        }
        return frame;
      };
      return {
        async send(recipient, messageId, returnPath) {
          const locale = compiled.localeFor(recipient.locale);
          const message = frameOf(locale).build({
            to: recipient.email,
            values: {
              firstName: recipient.firstName,
              lastName: recipient.lastName ?? '',
              email: recipient.email,
            },
            ...(test
              ? footerLinks.test(locale)
              : footerLinks.recipient(recipient.email, locale, campaignId)),
            ...(tracked
              ? { tracking: trackingUrls(tracked, recipient.email, locale, recipient.source) }
              : {}),
            messageId,
            ...(returnPath ? { returnPath } : {}),
          });
          await transport.send(message);
        },
      };
    },
    trackedLinks: (mail) => [...campaignLinkTable(mail, { senderName, siteUrl }).links],
    isPermanentFailure: (error) =>
      error instanceof InvalidRecipientError || isPermanentSmtpFailure(error),
    isUnreachable: isConnectionFailure,
    failureReason: smtpFailureReason,
    close: () => transport.close(),
  };
}
