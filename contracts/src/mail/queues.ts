/**
 * Queue names and job payloads shared by the API (producer) and the worker
 * (consumer). Jobs carry ids only: the worker loads the current document.
 */
export const QUEUE_NAMES = {
  contactNotification: 'contact-notification',
} as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export interface ContactNotificationJob {
  contactId: string;
}

/** BullMQ forbids ':' in custom ids; one id per contact makes re-enqueueing idempotent. */
export function contactNotificationJobId(contactId: string): string {
  return `contact-${contactId}`;
}
