import type { Locale } from '../locales';
import type { ServiceSlug } from '../services';

/** Where staff stand with an enquiry: it arrives `new`, then they work it. */
export const CONTACT_STATUSES = ['new', 'in-progress', 'replied', 'archived'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/**
 * Where one owed mail stands (its outbox state): `pending` until the SMTP
 * server accepts it, then `sent`; `failed` once it was refused for good or
 * every retry was used. Only `pending` moves, so a late retry or a duplicate
 * job never overwrites the outcome.
 */
export const MAIL_STATES = ['pending', 'sent', 'failed'] as const;
export type MailState = (typeof MAIL_STATES)[number];

export interface ContactDto {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone?: string;
  service: ServiceSlug;
  message: string;
  locale: Locale;
  status: ContactStatus;
  /** The agency's notification mail. */
  mailState: MailState;
  /** The acknowledgement mailed to the visitor in their language. */
  acknowledgementState: MailState;
  createdAt: string;
}

export interface CreateContactResponse {
  id: string;
}
