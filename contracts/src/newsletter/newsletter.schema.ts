import { mixed, object, type InferType } from 'yup';
import { LOCALES, type Locale } from '../locales';
import { message, text } from '../validation/fields';
import { emailAddress } from '../validation/email-address';
import { NEWSLETTER_SOURCES, type NewsletterSource } from './newsletter.dto';

export const NEWSLETTER_LIMITS = {
  emailMax: 254,
  // A signed link token is about 200 characters; anything far longer is not ours.
  tokenMax: 1024,
} as const;

/**
 * The newsletter banner's request, validated identically by the form and the
 * API. `locale` is the page language the confirmation mail is written in.
 */
export const newsletterSchema = object({
  email: emailAddress().typeError(message('emailInvalid')),
  locale: mixed<Locale>().optional().oneOf(LOCALES, message('localeInvalid')),
  source: mixed<NewsletterSource>().optional().oneOf(NEWSLETTER_SOURCES, message('sourceInvalid')),
});

export type NewsletterInput = InferType<typeof newsletterSchema>;

/** What the banner's formik form holds. */
export interface NewsletterFormValues {
  email: string;
}

export const EMPTY_NEWSLETTER_FORM: NewsletterFormValues = { email: '' };

/** The token of a confirmation or unsubscribe link, as the SPA pages send it back. */
export const newsletterTokenSchema = object({
  token: text(NEWSLETTER_LIMITS.tokenMax).required(message('linkTokenRequired')),
});

export type NewsletterTokenInput = InferType<typeof newsletterTokenSchema>;
