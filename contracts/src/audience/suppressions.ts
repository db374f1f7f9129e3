import { object, type InferType } from 'yup';
import { listQuerySchema } from '../admin/list-query';
import { oneOfText, optionalText } from '../validation/fields';
import { emailAddress } from '../validation/email-address';

/** Why an address is never mailed by a campaign or taken in by an import. */
export const SUPPRESSION_REASONS = [
  'hard-bounce',
  'soft-bounce',
  'complaint',
  'unsubscribe',
  'staff',
] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** Where the suppression came from: a provider's webhook, a returned mail, a link, or staff. */
export const SUPPRESSION_SOURCES = [
  'ses',
  'postmark',
  'sendgrid',
  'mailgun',
  'generic',
  'dsn',
  'unsubscribe-link',
  'staff',
] as const;
export type SuppressionSource = (typeof SUPPRESSION_SOURCES)[number];

/** Staff adding an address by hand. */
export const suppressionSchema = object({
  email: emailAddress(),
  note: optionalText(500),
});
export type SuppressionInput = InferType<typeof suppressionSchema>;

export const suppressionQuerySchema = listQuerySchema({
  sortFields: ['email', 'at'] as const,
  defaultSort: '-at',
  filters: { reason: oneOfText(SUPPRESSION_REASONS).optional() },
});
export type SuppressionQuery = InferType<typeof suppressionQuerySchema>;

export interface SuppressionDto {
  /** The normalised address: the suppression's id. */
  key: string;
  email: string;
  reason: SuppressionReason;
  source: SuppressionSource;
  at: string;
  /** The campaign whose mail bounced or was complained about, when known. */
  campaign: { id: string; name: string | null } | null;
  /** The provider's or the server's words, or staff's note. */
  detail: string | null;
  by: { id: string; username: string } | null;
}
