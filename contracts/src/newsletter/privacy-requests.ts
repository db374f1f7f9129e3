import { object, type InferType } from 'yup';
import { message, oneOfText, text } from '../validation/fields';
import { NEWSLETTER_LIMITS } from './newsletter.schema';

/**
 * What a person may ask for their own data from the preference page. Each
 * is mailed as a link of its own, so that a forwarded manage link is not
 * enough to take or erase someone's data.
 */
export const PRIVACY_LINK_PURPOSES = ['download', 'erasure'] as const;
export type PrivacyLinkPurpose = (typeof PRIVACY_LINK_PURPOSES)[number];

/** A mailed privacy link works this long after its mail was written, and once. */
export const PRIVACY_LINK_TTL_HOURS = 24;

/** The preference page's request: its manage token, and which link to mail. */
export const privacyLinkRequestSchema = object({
  token: text(NEWSLETTER_LIMITS.tokenMax).required(message('linkTokenRequired')),
  purpose: oneOfText(PRIVACY_LINK_PURPOSES).required(message('required')),
});
export type PrivacyLinkRequestInput = InferType<typeof privacyLinkRequestSchema>;

/** The answer to a request: the address the link was mailed to. */
export interface PrivacyLinkRequestResponse {
  status: 'sent';
  email: string;
}

/** The mailed link's page asks what the link is for before the person acts on it. */
export const privacyLinkCheckSchema = privacyLinkRequestSchema;
export type PrivacyLinkCheckInput = InferType<typeof privacyLinkCheckSchema>;

/** A link that can still be used: for what, and the address it names. */
export interface PrivacyLinkCheckResponse {
  purpose: PrivacyLinkPurpose;
  email: string;
}

/** Using a mailed link (the download, or the erasure's final confirmation): its token alone. */
export const privacyLinkUseSchema = object({
  token: text(NEWSLETTER_LIMITS.tokenMax).required(message('linkTokenRequired')),
});
export type PrivacyLinkUseInput = InferType<typeof privacyLinkUseSchema>;

/** The erasure's answer: it is queued; the worker mails the person when it is done. */
export interface PrivacyErasureStartedResponse {
  status: 'started';
}
