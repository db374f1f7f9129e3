import type { Locale } from '../locales';
import { NEWSLETTER_SOURCES } from '../newsletter/newsletter.dto';
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

/**
 * Where a consent to news was given: the newsletter's own forms, or the
 * "send me news" box of the contact form. Not a newsletter source, so the
 * sign-up form can never claim to be the contact form.
 */
export const CONTACT_CONSENT_SOURCE = 'contact-form' as const;
export const CONSENT_SOURCES = [...NEWSLETTER_SOURCES, CONTACT_CONSENT_SOURCE] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

/**
 * The version of the wording beside the contact form's news box
 * (`form.newsletterConsent` in the contact page's catalogues). Change it
 * whenever that text changes, so each consent says what was agreed to.
 */
export const CONTACT_CONSENT_WORDING_VERSION = 'contact-news-consent-v1';
