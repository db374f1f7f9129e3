import {
  contactMailStatuses,
  findConfirmationReceipt,
  findSubscriberByEmail,
} from '@agency/platform';
import { OwedMailModel } from '@agency/platform/testing/outbox-models';

/**
 * Where an enquiry's two mails stand, worded as the admin contact DTO words
 * it (mailState, acknowledgementState...), read from the outbox and receipts.
 */
export async function contactMailStates(contactId: string) {
  const { notification, acknowledgement } = await contactMailStatuses(contactId);
  return {
    mailState: notification.state,
    acknowledgementState: acknowledgement.state,
    ...(notification.state === 'sent' ? { mailSentAt: notification.at } : {}),
    ...(acknowledgement.state === 'sent' ? { acknowledgementSentAt: acknowledgement.at } : {}),
    ...(notification.error ? { mailError: notification.error } : {}),
    ...(acknowledgement.error ? { acknowledgementError: acknowledgement.error } : {}),
  };
}

/** Where the confirmation mail of an address's latest request (or of `request`) stands. */
export async function confirmationMailState(email: string, request?: number) {
  const subscriber = await findSubscriberByEmail(email);
  if (!subscriber) throw new Error(`no subscriber ${email}`);
  const receipt = await findConfirmationReceipt({
    subscriberId: subscriber.id as string,
    request: request ?? subscriber.confirmationRequests,
  });
  return {
    mailState: receipt?.outcome ?? 'pending',
    ...(receipt?.error ? { mailError: receipt.error } : {}),
  };
}

/** The mail jobs still owed: what the outbox relay would enqueue. */
export async function outboxEntries(): Promise<string[]> {
  const entries = await OwedMailModel.find().select({ _id: 1 }).lean();
  return entries.map((entry) => entry._id).sort();
}
