import type { Job } from 'bullmq';
import addressparser from 'nodemailer/lib/addressparser';
import type { ContactDto, ContactMailJob } from '@agency/contracts';
import {
  contactForMail,
  findContactForMail,
  markContactAcknowledgementFailed,
  markContactAcknowledgementSent,
  markContactMailFailed,
  markContactMailSent,
  mailMessageId,
  settleContactMails,
  type Logger,
  type MailIdentityKey,
} from '@agency/platform';
import type { MailTransport } from '../mail/transport';
import { renderContactAcknowledgement } from '../mail/templates/contact-acknowledgement.template';
import { renderContactNotification } from '../mail/templates/contact-notification.template';
import { deliverOwedMails, isFirstRun, type MailOutcome, type OwedMail } from './owed-mail';

export interface ContactMailDeps {
  transport: MailTransport;
  mailFrom: string;
  /** The agency's inbox: it gets the notification, and the visitor's replies. */
  mailTo: string;
  messageIdDomain: string;
  /** Makes each Message-ID name its recipient by a keyed digest: a bounce is checked against it. */
  identityKey: MailIdentityKey;
  /**
   * The agency's clock, as its settings say now (an admin may change it
   * without a restart): the notification says when the enquiry came in on it.
   */
  agencyTimeZone: () => Promise<string>;
  logger: Logger;
}

/**
 * `Agency <hello@agency.tn>` -> `hello@agency.tn`, read by nodemailer's own
 * parser as the mail is addressed: the digest is of the address a report names.
 */
function addressOf(mailbox: string): string {
  return addressparser(mailbox, { flatten: true })[0]?.address ?? mailbox;
}

export type ContactMailResult = Record<'notification' | 'acknowledgement', MailOutcome> | 'skipped';

/** Every field of the enquiry, to the agency's inbox: a reply goes to the visitor. */
function notificationMail(
  { transport, mailFrom, mailTo, messageIdDomain, identityKey, agencyTimeZone }: ContactMailDeps,
  contactId: string,
  dto: ContactDto,
): OwedMail<'notification'> {
  return {
    name: 'notification',
    owed: dto.mailState === 'pending',
    send: async () => {
      const mail = renderContactNotification(dto, await agencyTimeZone());
      return transport.sendMail({
        from: mailFrom,
        to: mailTo,
        replyTo: { name: `${dto.firstName} ${dto.lastName}`, address: dto.email },
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mailMessageId(
          identityKey,
          `contact-${dto.id}`,
          addressOf(mailTo),
          messageIdDomain,
        ),
      });
    },
    markSent: () => markContactMailSent(contactId),
    markFailed: (reason) => markContactMailFailed(contactId, reason),
  };
}

/** The acknowledgement, to the visitor in their language: a reply goes to the agency's inbox. */
function acknowledgementMail(
  { transport, mailFrom, mailTo, messageIdDomain, identityKey }: ContactMailDeps,
  contactId: string,
  dto: ContactDto,
): OwedMail<'acknowledgement'> {
  return {
    name: 'acknowledgement',
    owed: dto.acknowledgementState === 'pending',
    send: () => {
      const mail = renderContactAcknowledgement(dto);
      return transport.sendMail({
        from: mailFrom,
        to: dto.email,
        replyTo: mailTo,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mailMessageId(identityKey, `contact-ack-${dto.id}`, dto.email, messageIdDomain),
      });
    },
    markSent: () => markContactAcknowledgementSent(contactId),
    markFailed: (reason) => markContactAcknowledgementFailed(contactId, reason),
  };
}

/**
 * The two mails of one enquiry: every field to the agency's inbox, then the
 * acknowledgement to the visitor in their language. Each is sent once: a
 * retry, a relay or a replayed job skips whatever was already settled.
 */
export function contactMailProcessor(deps: ContactMailDeps) {
  const { logger } = deps;
  return async (job: Job<ContactMailJob>): Promise<ContactMailResult> => {
    const { contactId, mail } = job.data;
    // The API's job carries the enquiry: its first run reads nothing from the
    // store, whose single writer the API's inserts are waiting on. Any other
    // run reads the outbox entry and the receipts, so nothing goes out twice;
    // the contacts collection is never read or written here.
    const dto =
      mail && isFirstRun(job)
        ? contactForMail(contactId, mail)
        : await findContactForMail(contactId);
    if (!dto) {
      logger.info({ contactId }, 'enquiry owes no mail; nothing to send');
      return 'skipped';
    }
    const outcomes = await deliverOwedMails(
      job,
      [notificationMail(deps, contactId, dto), acknowledgementMail(deps, contactId, dto)],
      // A job that delivered everything completes, and the outbox relay takes
      // completed jobs out of the outbox in one delete per pass: a delete per
      // job would scan the outbox while holding the store's only writer.
      // A job ending with a failure is taken out here: those are few.
      (delivered) => (delivered ? Promise.resolve() : settleContactMails(contactId)),
    );
    logger.info({ contactId, jobId: job.id, ...outcomes }, 'enquiry mails done');
    return outcomes;
  };
}
