import type { Job } from 'bullmq';
import {
  NEWSLETTER_PAGES,
  isLocale,
  type PrivacyLinkJob,
  type PrivacyLinkPurpose,
} from '@agency/contracts';
import {
  mailMessageId,
  signPrivacyLinkToken,
  type Logger,
  type MailIdentityKey,
} from '@agency/platform';
import type { MailTransport } from '../mail/transport';
import { renderPrivacyLink } from '../mail/templates/privacy-link.template';

export interface PrivacyLinkDeps {
  transport: MailTransport;
  mailFrom: string;
  siteUrl: string;
  mailLinkSecret: string;
  messageIdDomain: string;
  identityKey: MailIdentityKey;
  logger: Logger;
}

const PAGES: Record<PrivacyLinkPurpose, string> = {
  download: NEWSLETTER_PAGES.privacyDownload,
  erasure: NEWSLETTER_PAGES.privacyErasure,
};

/** The site's page of a mailed privacy link, in the person's language. */
export function privacyLinkPageUrl(
  siteUrl: string,
  purpose: PrivacyLinkPurpose,
  token: string,
  locale: string,
): string {
  const url = new URL(PAGES[purpose], `${siteUrl}/`);
  url.searchParams.set('token', token);
  url.searchParams.set('lang', locale);
  return url.toString();
}

/**
 * Mails a person their own download or erasure link. The token is signed
 * here, when the mail is written, so its 24 hours start then and it is
 * never stored; a retried job signs a new one.
 */
export function privacyLinkProcessor(deps: PrivacyLinkDeps) {
  return async (job: Job<PrivacyLinkJob>): Promise<'sent'> => {
    const { requestId, email, purpose } = job.data;
    const locale = isLocale(job.data.locale) ? job.data.locale : 'en';
    const token = signPrivacyLinkToken(email, purpose, deps.mailLinkSecret);
    const mail = renderPrivacyLink(locale, {
      purpose,
      url: privacyLinkPageUrl(deps.siteUrl, purpose, token, locale),
    });
    await deps.transport.sendMail({
      from: deps.mailFrom,
      to: email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: mailMessageId(
        deps.identityKey,
        `privacy-link-${requestId}-${job.attemptsMade}`,
        email,
        deps.messageIdDomain,
      ),
    });
    deps.logger.info({ requestId, purpose, jobId: job.id }, 'privacy link mail sent');
    return 'sent';
  };
}
