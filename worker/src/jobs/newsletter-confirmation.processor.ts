import type { Job } from 'bullmq';
import type { Locale, NewsletterConfirmationJob } from '@agency/contracts';
import {
  findSubscriberById,
  markConfirmationMailFailed,
  markConfirmationMailSent,
  signConfirmationToken,
  signUnsubscribeToken,
  type Logger,
} from '@agency/backend/store';
import type { MailTransport } from '../mail/transport';
import {
  confirmationPageUrl,
  listUnsubscribeHeaders,
  unsubscribePageUrl,
} from '../mail/newsletter-links';
import { renderNewsletterConfirmation } from '../mail/templates/newsletter-confirmation.template';
import { deliverOwedMails, type MailOutcome } from './owed-mail';

export interface NewsletterConfirmationDeps {
  transport: MailTransport;
  mailFrom: string;
  siteUrl: string;
  mailLinkSecret: string;
  messageIdDomain: string;
  logger: Logger;
}

/**
 * Sends the double opt-in mail of one subscription request, in the language
 * the visitor subscribed in. The link's 7 days start when it is written here.
 */
export function newsletterConfirmationProcessor({
  transport,
  mailFrom,
  siteUrl,
  mailLinkSecret,
  messageIdDomain,
  logger,
}: NewsletterConfirmationDeps) {
  return async (job: Job<NewsletterConfirmationJob>): Promise<MailOutcome> => {
    const { subscriberId, request } = job.data;
    const subscriber = await findSubscriberById(subscriberId);
    if (!subscriber) return 'skipped';

    const { confirmation } = await deliverOwedMails(job, [
      {
        name: 'confirmation',
        // Not when confirmed or left since, superseded by a newer request, or already sent.
        owed:
          subscriber.status === 'pending' &&
          subscriber.confirmationRequests === request &&
          subscriber.mailState === 'pending',
        send: () => {
          const locale = subscriber.locale as Locale;
          const confirmToken = signConfirmationToken(subscriberId, mailLinkSecret);
          const unsubscribeToken = signUnsubscribeToken(subscriber.email, mailLinkSecret);
          const mail = renderNewsletterConfirmation(locale, {
            confirmUrl: confirmationPageUrl(siteUrl, confirmToken, locale),
            unsubscribeUrl: unsubscribePageUrl(siteUrl, unsubscribeToken, locale),
          });
          return transport.sendMail({
            from: mailFrom,
            to: subscriber.email,
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
            messageId: `<subscriber-${subscriberId}-${request}@${messageIdDomain}>`,
            ...listUnsubscribeHeaders(siteUrl, unsubscribeToken),
          });
        },
        markSent: () => markConfirmationMailSent(job.data),
        markFailed: (reason) => markConfirmationMailFailed(job.data, reason),
      },
    ]);
    logger.info(
      { subscriberId, request, jobId: job.id, confirmation },
      'newsletter confirmation done',
    );
    return confirmation;
  };
}
