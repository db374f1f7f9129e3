import type { ContactDto } from '../contact/contact.dto';
import type { Locale } from '../locales';
import type { NewsletterSource } from '../newsletter/newsletter.dto';
import type { PrivacyLinkPurpose } from '../newsletter/privacy-requests';

/**
 * Every queue's name, and the job payloads shared by the API (producer) and the worker
 * (consumer). Jobs carry ids; the worker loads what it needs, except where a
 * job says otherwise.
 */
export const QUEUE_NAMES = {
  /** Both mails of an enquiry, in one job so one writer updates the enquiry at a time. */
  contactMail: 'contact-mail',
  newsletterConfirmation: 'newsletter-confirmation',
  /** Holds the outbox relay's job scheduler: one pass per interval across every worker. */
  outboxRelay: 'outbox-relay',
  /** Walks a campaign's audience and adds its batches' send jobs. */
  campaignDispatch: 'campaign-dispatch',
  /** One batch of a campaign's recipients. */
  campaignSend: 'campaign-send',
  campaignTestSend: 'campaign-test-send',
  /** Holds the job scheduler that takes up stalled campaigns. */
  campaignRecovery: 'campaign-recovery',
  /** Delayed jobs that start scheduled campaigns at their time. */
  campaignSchedule: 'campaign-schedule',
  /** Batches of opens and clicks the API answered, for the worker to judge and count. */
  campaignEvents: 'campaign-events',
  /** Holds the job scheduler that destroys the tracking keys of campaigns past their retention. */
  trackingKeyRetention: 'tracking-key-retention',
  /**
   * A subscription request, taken as it is: the worker records it. The API
   * only enqueues, so its answer costs the same whatever the address's state.
   */
  newsletterRequest: 'newsletter-request',
  /** The mail with a staff member's password reset link. */
  passwordReset: 'password-reset',
  /** One uploaded CSV file read into a mailing list. */
  listImport: 'list-import',
  /** Removes a deleted list's members in bounded chunks, then the list itself. */
  listDelete: 'list-delete',
  /** Holds the job scheduler that queues again the deletion of lists whose job Redis lost. */
  listDeleteRecovery: 'list-delete-recovery',
  /** Holds the job scheduler that reconciles the dashboard's kept figures with the store. */
  statsReconcile: 'stats-reconcile',
  /** Holds the job scheduler that reads returned mail from the bounce mailbox, when one is set. */
  bounceMailbox: 'bounce-mailbox',
  /** Holds the job scheduler that asks the SMTP server, while it cannot be reached, whether it is back. */
  mailServerProbe: 'mail-server-probe',
  /** Erases one address from everything that holds it, step by step, then mails the person. */
  personErasure: 'person-erasure',
  /** The mail with a person's own download or erasure link, asked on the preference page. */
  privacyLink: 'privacy-link',
  /** Holds the job scheduler that rebuilds the people view from the records that hold each address. */
  peopleRebuild: 'people-rebuild',
  /** Holds the daily job scheduler of the retention rules: unconfirmed sign-ups, old enquiries, the activity log. */
  retention: 'retention',
} as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

/** The agency's notification and the visitor's acknowledgement, whichever are still owed. */
export interface ContactMailJob {
  contactId: string;
  /**
   * What both mails are written from, on the job the API adds right after
   * storing the enquiry: its first run sends without reading the store. A
   * job without it (added by the outbox relay) reads the enquiry's outbox
   * entry, and every retry or replay reads the receipts first.
   */
  mail?: ContactMailContent;
}

/** The enquiry as its two mails need it. */
export type ContactMailContent = Pick<
  ContactDto,
  'firstName' | 'lastName' | 'email' | 'phone' | 'service' | 'message' | 'locale' | 'createdAt'
>;

export interface NewsletterConfirmationJob {
  subscriberId: string;
  /**
   * Which subscription request of this address the mail answers: asking again
   * while pending owes a new mail, so it needs a new job id.
   */
  request: number;
}

/**
 * One "forgot password" request, stored by the API whether or not the
 * address belongs to a staff member: the worker looks the address up, and
 * only for a staff member writes the link's token and sends the mail.
 */
export interface PasswordResetJob {
  requestId: string;
}

export function passwordResetJobId(requestId: string): string {
  return `password-reset-${requestId}`;
}

/** One newsletter form submission, as the API validated it. */
export interface NewsletterRequestJob {
  email: string;
  locale: Locale;
  source: NewsletterSource;
  /** The visitor's address and the moment they asked: the consent record. */
  ip: string;
  requestedAt: string;
  /** The public lists chosen with the subscription (checked by the API); absent: none. */
  listIds?: string[];
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

export const MAIL_SERVER_PROBE_SCHEDULER_ID = 'mail-server-probe';

/** One job per campaign send: the worker expands it into the recipients' jobs. */
export interface CampaignDispatchJob {
  campaignId: string;
}

/** One dispatch per campaign: a repeated send request cannot start it twice. */
export function campaignDispatchJobId(campaignId: string): string {
  return `campaign-dispatch-${campaignId}`;
}

/**
 * The sends of one campaign, a few recipients per job: the dispatch job adds
 * them in bulk. Each recipient is a snapshot taken at dispatch (the address,
 * the name for personalisation, the language of the footer), so a send
 * never reads the growing contacts collection again.
 */
export interface CampaignRecipient {
  /** The normalised address: one mail per key per campaign. */
  key: string;
  email: string;
  firstName: string;
  /** Absent in batches queued before last names were kept: read as empty. */
  lastName?: string;
  locale: string;
  /**
   * Where the audience walk found the recipient: its place in the campaign's
   * sources (`campaignSourceKeyOf`). Absent in batches queued before sources
   * were kept: counted under "unknown source".
   */
  source?: number;
}

export interface CampaignSendJob {
  campaignId: string;
  /** 1 for the first send, then one more for each "resend to the failed". */
  round: number;
  /** The pass that queued it: a batch of an older pass (before a pause) is skipped. */
  pass: number;
  /** The batch's number in its round: its ledger document is `<campaign>:<round>:<seq>`. */
  seq: number;
  /** The batch's recipients, in the order of its ledger document. */
  recipients: CampaignRecipient[];
  /**
   * Positions in `recipients` whose outcome the ledger already holds: set when
   * a batch is queued again from the ledger (a resume, or after Redis lost its
   * state), so that nobody settled is mailed again.
   */
  settled?: number[];
}

/** A test send of a campaign to one address: outside the ledger and the counters. */
export interface CampaignTestSendJob {
  campaignId: string;
  email: string;
  /** The language to send it in; the campaign's default when absent. */
  locale?: Locale;
}

/**
 * A scheduled campaign's start, a delayed job due at `scheduledAt`: it
 * queues the campaign only if it is still scheduled for that very time.
 */
export interface CampaignScheduleJob {
  campaignId: string;
  scheduledAt: string;
}

/** One id per campaign and time: moving the time is a new job; the old one finds the time changed. */
export function campaignScheduleJobId(campaignId: string, scheduledAt: Date): string {
  return `campaign-schedule-${campaignId}-${scheduledAt.getTime()}`;
}

export const CAMPAIGN_RECOVERY_SCHEDULER_ID = 'campaign-recovery';

/**
 * The dispatch of one pass over one round. Round 1 pass 1 keeps the id the
 * send route has always used; a resume is a new pass and a resend a new
 * round, each a new id, and each idempotent in itself.
 */
export function campaignRoundDispatchJobId(
  campaignId: string,
  round: number,
  pass: number,
): string {
  return round === 1 && pass === 1
    ? campaignDispatchJobId(campaignId)
    : `campaign-dispatch-${campaignId}-r${round}-p${pass}`;
}

/**
 * One batch of one pass of one round. The batch is named by its number in
 * the round's ledger, so a dispatch or a recovery that queues it again adds
 * the same id, and a recipient is never in two batches of one pass.
 */
export function campaignSendJobId(
  campaignId: string,
  round: number,
  pass: number,
  seq: number,
): string {
  return `campaign-${campaignId}-r${round}-p${pass}-b${seq}`;
}

/** An uploaded file read into its list: the worker loads the import's settings. */
export interface ListImportJob {
  importId: string;
}

/** One job per import: starting it twice cannot read the file twice at once. */
export function listImportJobId(importId: string): string {
  return `list-import-${importId}`;
}

/** A list being deleted: the worker removes its members chunk by chunk, then the list. */
export interface ListDeleteJob {
  listId: string;
}

/** One job per list: a second delete request, or the recovery, adds nothing more. */
export function listDeleteJobId(listId: string): string {
  return `list-delete-${listId}`;
}

export const LIST_DELETE_RECOVERY_SCHEDULER_ID = 'list-delete-recovery';

/**
 * One erasure. The only job that carries an address: the worker needs it to
 * find the records and to mail the confirmation, and the job is removed as
 * soon as it ends, whatever the outcome.
 */
export interface PersonErasureJob {
  /** The address's keyed digest: the erasure's id. */
  erasureId: string;
  email: string;
}

/** One job per address: asking twice while it runs queues nothing more. */
export function personErasureJobId(erasureId: string): string {
  return `person-erasure-${erasureId}`;
}

/**
 * A person's own download or erasure link. It carries the address (the
 * worker signs the link for it and mails it) and is removed as soon as it
 * ends, like the erasure job, so the address does not stay in Redis.
 */
export interface PrivacyLinkJob {
  /** A random id per request: each request owes its own mail. */
  requestId: string;
  email: string;
  purpose: PrivacyLinkPurpose;
  locale: Locale;
}

export function privacyLinkJobId(requestId: string): string {
  return `privacy-link-${requestId}`;
}
