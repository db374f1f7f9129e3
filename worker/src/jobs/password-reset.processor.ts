import type { Job } from 'bullmq';
import { PASSWORD_RESET_PAGE, isLocale, type PasswordResetJob } from '@agency/contracts';
import {
  findResetRequest,
  findUserByEmail,
  issueResetToken,
  mailMessageId,
  type Logger,
  type MailIdentityKey,
} from '@agency/platform';
import type { MailTransport } from '../mail/transport';
import { renderPasswordReset } from '../mail/templates/password-reset.template';

export interface PasswordResetDeps {
  transport: MailTransport;
  mailFrom: string;
  siteUrl: string;
  messageIdDomain: string;
  /** Makes each Message-ID name its recipient by a keyed digest: a bounce is checked against it. */
  identityKey: MailIdentityKey;
  logger: Logger;
}

export type PasswordResetOutcome = 'sent' | 'no such staff member' | 'used or gone';

/** The site's reset page with the link's token, in the language of the request. */
export function resetPageUrl(siteUrl: string, token: string, locale: string): string {
  const url = new URL(PASSWORD_RESET_PAGE, `${siteUrl}/`);
  url.searchParams.set('token', token);
  url.searchParams.set('lang', locale);
  return url.toString();
}

/**
 * Mails a reset link when the requested address belongs to a staff member,
 * and does nothing for any other address (the API answered the same to
 * both). A retried job writes a new token: the link of a mail that failed
 * never works.
 */
export function passwordResetProcessor({
  transport,
  mailFrom,
  siteUrl,
  messageIdDomain,
  identityKey,
  logger,
}: PasswordResetDeps) {
  return async (job: Job<PasswordResetJob>): Promise<PasswordResetOutcome> => {
    const { requestId } = job.data;
    const request = await findResetRequest(requestId);
    if (!request || request.usedAt) return 'used or gone';
    const user = await findUserByEmail(request.email);
    if (!user) {
      logger.info({ requestId }, 'password reset asked for an address of nobody');
      return 'no such staff member';
    }
    const locale = isLocale(request.locale) ? request.locale : 'en';
    const { token } = await issueResetToken(requestId, String(user._id));
    const mail = renderPasswordReset(locale, {
      username: user.username,
      resetUrl: resetPageUrl(siteUrl, token, locale),
    });
    await transport.sendMail({
      from: mailFrom,
      to: user.email,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: mailMessageId(
        identityKey,
        `password-reset-${requestId}-${job.attemptsMade}`,
        user.email,
        messageIdDomain,
      ),
    });
    logger.info({ requestId, jobId: job.id }, 'password reset mail sent');
    return 'sent';
  };
}
