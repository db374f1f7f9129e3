import { isValidObjectId } from 'mongoose';
import { QUEUE_NAMES, type NewsletterConfirmationJob } from '@agency/contracts';
import {
  findReceipt,
  oweMail,
  recordReceipt,
  settleOwedMail,
  type Receipt,
} from '../mail-outbox/mail-outbox.service';
import type { ReceiptMail } from '../mail-outbox';
import { SubscriberModel, type SubscriberDocument } from './subscriber.model';
import { normalizeEmail } from '../mail/email-address';

/*
 * A newsletter subscriber as the worker reads it, and the confirmation mail's
 * outbox entry and receipt: the API owes the mail, the worker settles it.
 */

export async function findSubscriberById(id: string): Promise<SubscriberDocument | null> {
  return isValidObjectId(id) ? SubscriberModel.findById(id).exec() : null;
}

export async function findSubscriberByEmail(email: string): Promise<SubscriberDocument | null> {
  return SubscriberModel.findOne({ email: normalizeEmail(email) }).exec();
}

/** One id for the outbox entry and the receipt of one request's confirmation mail. */
export function confirmationMailId({ subscriberId, request }: NewsletterConfirmationJob): string {
  return `${CONFIRMATION_MAIL}:${subscriberId}:${request}`;
}

const CONFIRMATION_MAIL = 'newsletter-confirmation' satisfies ReceiptMail;

export function oweConfirmationMail(job: NewsletterConfirmationJob): Promise<void> {
  return oweMail([
    { id: confirmationMailId(job), job: QUEUE_NAMES.newsletterConfirmation, ...job },
  ]);
}

/** How one request's confirmation mail ended, or null while it is owed. */
export function findConfirmationReceipt(job: NewsletterConfirmationJob): Promise<Receipt | null> {
  return findReceipt(confirmationMailId(job));
}

/*
 * Each request's mail has its own receipt, written once: a mail for an older
 * request, a duplicate job or a late failure never changes the outcome of
 * another, nor the first outcome of its own.
 */

export async function markConfirmationMailSent(job: NewsletterConfirmationJob): Promise<void> {
  await recordReceipt({
    id: confirmationMailId(job),
    mail: CONFIRMATION_MAIL,
    ref: job.subscriberId,
    outcome: 'sent',
  });
}

export async function markConfirmationMailFailed(
  job: NewsletterConfirmationJob,
  reason: string,
): Promise<void> {
  await recordReceipt({
    id: confirmationMailId(job),
    mail: CONFIRMATION_MAIL,
    ref: job.subscriberId,
    outcome: 'failed',
    error: reason,
  });
}

/** The request's mail is settled (sent, failed, or owed no more): its outbox entry goes. */
export function settleConfirmationMail(job: NewsletterConfirmationJob): Promise<void> {
  return settleOwedMail(confirmationMailId(job));
}
