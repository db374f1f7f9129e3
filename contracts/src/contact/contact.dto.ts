import type { Locale } from '../locales';
import type { ServiceSlug } from '../services';

/** Where staff stand with an enquiry: it arrives `new`, then they work it. */
export const CONTACT_STATUSES = ['new', 'in-progress', 'replied', 'archived'] as const;
export type ContactStatus = (typeof CONTACT_STATUSES)[number];

/** Where the notification mail of an enquiry stands (the outbox state). */
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
  mailState: MailState;
  createdAt: string;
}

export interface CreateContactResponse {
  id: string;
}
