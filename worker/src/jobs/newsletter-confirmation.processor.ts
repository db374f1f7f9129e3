import type { Job } from 'bullmq';
import type { Locale, NewsletterConfirmationJob } from '@agency/contracts';
import {
  findConfirmationReceipt,
  findSubscriberById,
  markConfirmationMailFailed,
  markConfirmationMailSent,
  settleConfirmationMail,
  signConfirmationToken,
  signUnsubscribeToken,
  signManageToken,
  mailMessageId,
  type Logger,
  type MailIdentityKey,
} from '@agency/platform';
import type { MailTransport } from '../mail/transport';
import {
  confirmationPageUrl,
  listUnsubscribeHeaders,
  unsubscribePageUrl,
  managePageUrl,
} from '../mail/newsletter-links';
import { renderNewsletterConfirmation } from '../mail/templates/newsletter-confirmation.template';
import { deliverOwedMails, type MailOutcome } from './owed-mail';

export interface NewsletterConfirmationDeps {
  transport: MailTransport;
  mailFrom: string;
  siteUrl: string;
  mailLinkSecret: string;
  messageIdDomain: string;
  /** Makes each Message-ID name its recipient by a keyed digest: a bounce is checked against it. */
  identityKey: MailIdentityKey;
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
  identityKey,
  logger,
}: NewsletterConfirmationDeps) {
  return async (job: Job<NewsletterConfirmationJob>): Promise<MailOutcome> => {
    const { subscriberId, request } = job.data;
    const [subscriber, receipt] = await Promise.all([
      findSubscriberById(subscriberId),
      findConfirmationReceipt(job.data),
    ]);
    if (!subscriber) {
      await settleConfirmationMail(job.data);
      return 'skipped';
    }

    const { confirmation } = await deliverOwedMails(
      job,
      [
        {
          name: 'confirmation',
          // Not when confirmed or left since, superseded by a newer request, or already settled.
          owed:
            subscriber.status === 'pending' &&
            subscriber.confirmationRequests === request &&
            receipt === null,
          send: () => {
            const locale = subscriber.locale as Locale;
            const confirmToken = signConfirmationToken(subscriberId, mailLinkSecret);
            const unsubscribeToken = signUnsubscribeToken(subscriber.email, mailLinkSecret);
            const mail = renderNewsletterConfirmation(locale, {
              confirmUrl: confirmationPageUrl(siteUrl, confirmToken, locale),
              unsubscribeUrl: unsubscribePageUrl(siteUrl, unsubscribeToken, locale),
              manageUrl: managePageUrl(
                siteUrl,
                signManageToken(subscriber.email, mailLinkSecret),
                locale,
              ),
            });
            return transport.sendMail({
              from: mailFrom,
              to: subscriber.email,
              subject: mail.subject,
              text: mail.text,
              html: mail.html,
              messageId: mailMessageId(
                identityKey,
                `subscriber-${subscriberId}-${request}`,
                subscriber.email,
                messageIdDomain,
              ),
              ...listUnsubscribeHeaders(siteUrl, unsubscribeToken),
            });
          },
          markSent: () => markConfirmationMailSent(job.data),
          markFailed: (reason) => markConfirmationMailFailed(job.data, reason),
        },
      ],
      () => settleConfirmationMail(job.data),
    );
    logger.info(
      { subscriberId, request, jobId: job.id, confirmation },
      'newsletter confirmation done',
    );
    return confirmation;
  };
}
