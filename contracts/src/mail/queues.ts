/**
 * Queue names and job payloads shared by the API (producer) and the worker
 * (consumer). Jobs carry ids only: the worker loads the current document.
 */
export const QUEUE_NAMES = {
  /** Both mails of an enquiry, in one job so one writer updates the enquiry at a time. */
  contactMail: 'contact-mail',
  newsletterConfirmation: 'newsletter-confirmation',
  /** Holds the outbox relay's job scheduler: one pass per interval across every worker. */
  outboxRelay: 'outbox-relay',
  campaignDispatch: 'campaign-dispatch',
} as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

/** The agency's notification and the visitor's acknowledgement, whichever are still owed. */
export interface ContactMailJob {
  contactId: string;
}

export interface NewsletterConfirmationJob {
  subscriberId: string;
  /**
   * Which subscription request of this address the mail answers: asking again
   * while pending owes a new mail, so it needs a new job id.
   */
  request: number;
}

// The relay pass carries nothing: it reads what is owed from MongoDB.
export type OutboxRelayJob = Record<string, never>;

/** BullMQ forbids ':' in custom ids; one id per mail makes re-enqueueing idempotent. */
export function contactMailJobId(contactId: string): string {
  return `contact-${contactId}`;
}

export function newsletterConfirmationJobId(subscriberId: string, request: number): string {
  return `subscriber-${subscriberId}-${request}`;
}

export const OUTBOX_RELAY_SCHEDULER_ID = 'outbox-relay';

/** One job per campaign send: the worker expands it into the recipients' jobs. */
export interface CampaignDispatchJob {
  campaignId: string;
}

/** One dispatch per campaign: a repeated send request cannot start it twice. */
export function campaignDispatchJobId(campaignId: string): string {
  return `campaign-dispatch-${campaignId}`;
}
