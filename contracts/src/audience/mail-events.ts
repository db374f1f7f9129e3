import { array, object, type InferType } from 'yup';
import { message, oneOfText, optionalText, text } from '../validation/fields';

/** The providers `POST /api/webhooks/mail-events/{provider}` (API_ROUTES.mailEvents) takes. */
export const MAIL_EVENT_PROVIDERS = ['ses', 'postmark', 'sendgrid', 'mailgun', 'generic'] as const;
export type MailEventProvider = (typeof MAIL_EVENT_PROVIDERS)[number];

/** What a delivery event means for the address. */
export const MAIL_EVENT_KINDS = ['hard-bounce', 'soft-bounce', 'complaint'] as const;
export type MailEventKind = (typeof MAIL_EVENT_KINDS)[number];

/** Soft bounces of one address within SOFT_BOUNCE_WINDOW_DAYS that suppress it. */
export const SOFT_BOUNCE_LIMIT = 3;
export const SOFT_BOUNCE_WINDOW_DAYS = 30;

/** The worker's pass over the bounce mailbox (QUEUE_NAMES.bounceMailbox): one per interval. */
export const BOUNCE_MAILBOX_SCHEDULER_ID = 'bounce-mailbox';
// The pass carries nothing: the mailbox is the worker's setting.
export type BounceMailboxJob = Record<string, never>;

/**
 * The generic format, for a relay without its own: a JSON body signed with a
 * shared secret (see docs/operations.md). Unknown `type`s are acknowledged and ignored.
 */
export const genericMailEventsSchema = object({
  events: array(
    object({
      id: text(200).required(message('required')),
      type: text(40).required(message('required')),
      email: text(254).required(message('emailInvalid')).email(message('emailInvalid')),
      bounceType: oneOfText(['hard', 'soft'] as const).optional(),
      messageId: optionalText(998),
      returnPath: optionalText(998),
      reason: optionalText(2000),
      at: optionalText(40),
    }),
  )
    .required(message('required'))
    .max(1000, message('maxValue', { max: 1000 })),
});
export type GenericMailEvents = InferType<typeof genericMailEventsSchema>;

export interface MailEventsResponse {
  /** Events recorded now. */
  recorded: number;
  /** Events seen before (same id): nothing changed. */
  duplicates: number;
  /** Events of a type that changes nothing here (deliveries, opens...). */
  ignored: number;
  /**
   * Bounces and complaints that name no mail we sent to their recipient
   * (another sender's mail, a made-up or another recipient's identity):
   * neither stored nor applied.
   */
  unmatched: number;
}

/** A bounce or complaint as the campaign's recipients dialog shows it. */
export interface RecipientMailEventDto {
  kind: MailEventKind;
  at: string;
  provider: MailEventProvider | 'dsn';
  detail: string | null;
}
