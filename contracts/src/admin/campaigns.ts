import { object, type InferType } from 'yup';
import { message, oneOfText, text } from '../validation/fields';
import { listQuerySchema } from './list-query';

/**
 * draft → queued (send accepted) → sending → sent, or failed when every
 * recipient failed; paused and cancelled belong to the sending controls.
 */
export const CAMPAIGN_STATUSES = [
  'draft',
  'queued',
  'sending',
  'paused',
  'sent',
  'failed',
  'cancelled',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Who receives it: enquiry contacts, confirmed subscribers, or both. */
export const RECIPIENT_TYPES = ['all', 'contacts', 'subscribers'] as const;
export type RecipientType = (typeof RECIPIENT_TYPES)[number];

export const CAMPAIGN_CONTENT_MAX = 100_000;

/** The campaign modal; the HTML content is sanitised again by the server. */
export const campaignSchema = object({
  name: text(200).required(message('required')),
  subject: text(200).required(message('required')),
  content: text(CAMPAIGN_CONTENT_MAX).required(message('required')),
  recipientType: oneOfText(RECIPIENT_TYPES).default('all'),
});
export type CampaignInput = InferType<typeof campaignSchema>;

export const CAMPAIGN_SORT_FIELDS = ['name', 'createdAt', 'status'] as const;
export const campaignListQuerySchema = listQuerySchema({
  sortFields: CAMPAIGN_SORT_FIELDS,
  defaultSort: '-createdAt',
  filters: { status: oneOfText(CAMPAIGN_STATUSES).optional() },
});
export type CampaignListQuery = InferType<typeof campaignListQuerySchema>;

export interface CampaignDto {
  id: string;
  name: string;
  subject: string;
  content: string;
  recipientType: RecipientType;
  status: CampaignStatus;
  /** Recipients counted when dispatch starts; 0 before. */
  total: number;
  sentCount: number;
  failedCount: number;
  queuedAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CampaignSendResponse {
  campaign: CampaignDto;
}

/**
 * How many distinct addresses each recipient type reaches now: what the send
 * confirmation shows. An address that unsubscribed is never counted.
 */
export type CampaignAudienceDto = Record<RecipientType, number>;
/** POST /api/admin/campaigns/{id}/test: one address, outside the ledger. */
export const campaignTestSendSchema = object({
  email: text(254).required(message('emailInvalid')).email(message('emailInvalid')),
});
export type CampaignTestSendInput = InferType<typeof campaignTestSendSchema>;

/** GET /api/admin/campaigns/{id}/progress: what a progress bar needs, one cheap read. */
export interface CampaignProgressDto {
  id: string;
  status: CampaignStatus;
  total: number;
  sentCount: number;
  failedCount: number;
  /** total - sentCount - failedCount: still to be settled (also the failed being resent). */
  pendingCount: number;
  /** (sentCount + failedCount) / total, 0..100, one decimal; 0 while total is 0. */
  percent: number;
  /** Recipients settled (sent or failed) per second over the last minute. */
  ratePerSecond: number;
  /** Which resend this is: 1 for the first send. */
  round: number;
  startedAt: string | null;
  finishedAt: string | null;
}

export const LEDGER_STATES = ['pending', 'sent', 'failed'] as const;
export type LedgerState = (typeof LEDGER_STATES)[number];

/** One recipient's line in a campaign's ledger. */
export interface CampaignRecipientDto {
  email: string;
  state: LedgerState;
  /** The SMTP server's reply when it refused the mail. */
  reason: string | null;
  /** Attempts of the latest round; more than 1 means it was retried or in flight at a crash. */
  attempts: number;
  round: number;
  at: string;
}

export const campaignRecipientQuerySchema = listQuerySchema({
  sortFields: ['email'] as const,
  defaultSort: 'email',
  filters: { state: oneOfText(LEDGER_STATES).optional() },
});
export type CampaignRecipientQuery = InferType<typeof campaignRecipientQuerySchema>;
