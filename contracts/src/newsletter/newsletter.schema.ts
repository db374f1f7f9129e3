import { array, mixed, object, type InferType } from 'yup';
import { LOCALES, type Locale } from '../locales';
import { message, recordId, text } from '../validation/fields';
import { emailAddress } from '../validation/email-address';
import { NEWSLETTER_SOURCES, type NewsletterSource } from './newsletter.dto';

export const NEWSLETTER_LIMITS = {
  emailMax: 254,
  // A signed link token is about 200 characters; anything far longer is not ours.
  tokenMax: 1024,
  /** Public lists one sign-up may choose: far more than an agency offers. */
  listIdsMax: 20,
} as const;

/**
 * The newsletter banner's request, validated identically by the form and the
 * API. `locale` is the page language the confirmation mail is written in.
 */
export const newsletterSchema = object({
  email: emailAddress().typeError(message('emailInvalid')),
  locale: mixed<Locale>().optional().oneOf(LOCALES, message('localeInvalid')),
  source: mixed<NewsletterSource>().optional().oneOf(NEWSLETTER_SOURCES, message('sourceInvalid')),
  /**
   * The public lists chosen on the form, confirmed with the subscription by
   * the same mail. The API refuses any id that is not a public list (400 on
   * `listIds`), so a sign-up can never join a staff-only list.
   */
  listIds: array(recordId().required(message('idInvalid')))
    .max(NEWSLETTER_LIMITS.listIdsMax, message('maxValue', { max: NEWSLETTER_LIMITS.listIdsMax }))
    .optional(),
});

export type NewsletterInput = InferType<typeof newsletterSchema>;

/** What the banner's formik form holds. */
export interface NewsletterFormValues {
  email: string;
  /** The public lists ticked on the form (none when none are offered). */
  listIds: string[];
}

export const EMPTY_NEWSLETTER_FORM: NewsletterFormValues = { email: '', listIds: [] };

/** The token of a confirmation or unsubscribe link, as the SPA pages send it back. */
export const newsletterTokenSchema = object({
  token: text(NEWSLETTER_LIMITS.tokenMax).required(message('linkTokenRequired')),
});

export type NewsletterTokenInput = InferType<typeof newsletterTokenSchema>;
