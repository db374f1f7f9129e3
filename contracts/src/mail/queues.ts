/**
 * Queue names and job payloads shared by the API (producer) and the worker
 * (consumer). Jobs carry ids only: the worker loads the current document.
 */
export const QUEUE_NAMES = {
  contactNotification: 'contact-notification',
  campaignDispatch: 'campaign-dispatch',
} as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export interface ContactNotificationJob {
  contactId: string;
}

/** BullMQ forbids ':' in custom ids; one id per contact makes re-enqueueing idempotent. */
export function contactNotificationJobId(contactId: string): string {
  return `contact-${contactId}`;
}

/** One job per campaign send: the worker expands it into the recipients' jobs. */
export interface CampaignDispatchJob {
  campaignId: string;
}

/** One dispatch per campaign: a repeated send request cannot start it twice. */
export function campaignDispatchJobId(campaignId: string): string {
  return `campaign-dispatch-${campaignId}`;
}
