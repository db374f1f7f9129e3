import type { Job } from 'bullmq';
import type { ContactNotificationJob } from '@agency/contracts';
import {
  findContactById,
  markContactMailFailed,
  markContactMailSent,
  toContactDto,
  type Logger,
} from '@agency/backend/store';
import type { MailTransport } from '../mail/transport';
import { renderContactNotification } from '../mail/templates/contact-notification.template';

export interface ContactNotificationDeps {
  transport: MailTransport;
  mailFrom: string;
  mailTo: string;
  logger: Logger;
}

/** Mails the agency inbox every field of one enquiry, once. */
export function contactNotificationProcessor({
  transport,
  mailFrom,
  mailTo,
  logger,
}: ContactNotificationDeps) {
  return async (job: Job<ContactNotificationJob>): Promise<'sent' | 'skipped'> => {
    const { contactId } = job.data;
    const contact = await findContactById(contactId);
    if (!contact) {
      logger.warn({ contactId }, 'enquiry no longer exists; nothing to mail');
      return 'skipped';
    }
    // A relay or a retry may deliver the same job again after success.
    if (contact.mailState === 'sent') return 'skipped';

    const dto = toContactDto(contact);
    const mail = renderContactNotification(dto);
    await transport.sendMail({
      from: mailFrom,
      to: mailTo,
      replyTo: { name: `${dto.firstName} ${dto.lastName}`, address: dto.email },
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: `<contact-${dto.id}@agency.mail>`,
    });
    await markContactMailSent(contactId);
    logger.info({ contactId, jobId: job.id }, 'enquiry notification sent');
    return 'sent';
  };
}

/** Called when BullMQ gives up on a job: record it so staff can see it. */
export async function recordContactNotificationFailure(
  job: Job<ContactNotificationJob>,
  error: Error,
): Promise<void> {
  await markContactMailFailed(job.data.contactId, error.message);
}
