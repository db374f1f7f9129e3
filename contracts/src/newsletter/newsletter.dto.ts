import { DEFAULT_LOCALE, type Locale } from '../locales';

/**
 * Where a newsletter address stands: `pending` until the visitor confirms the
 * double opt-in mail, `confirmed` while it may receive newsletters and
 * campaigns, `unsubscribed` once it asked to stop (kept, so it stays excluded).
 */
export const SUBSCRIBER_STATUSES = ['pending', 'confirmed', 'unsubscribed'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

/** The forms a subscription can come from, recorded with the consent. */
export const NEWSLETTER_SOURCES = ['newsletter-banner'] as const;
export type NewsletterSource = (typeof NEWSLETTER_SOURCES)[number];
export const DEFAULT_NEWSLETTER_SOURCE: NewsletterSource = 'newsletter-banner';

/**
 * The version of the consent wording shown beside the subscribe button
 * (`newsletter.consent` in the site's catalogues). Change it whenever that
 * text changes, so each consent record says what the visitor agreed to.
 */
export const NEWSLETTER_CONSENT_WORDING_VERSION = 'newsletter-consent-v1';

/** A confirmation link works for this long after its mail was sent. */
export const NEWSLETTER_CONFIRMATION_TTL_DAYS = 7;
export const NEWSLETTER_CONFIRMATION_TTL_MS = NEWSLETTER_CONFIRMATION_TTL_DAYS * 24 * 3600 * 1000;

/** The site's pages that mail links open; the API redirects browsers there too. */
export const NEWSLETTER_PAGES = {
  confirm: '/newsletter/confirm',
  unsubscribe: '/newsletter/unsubscribe',
  /** The "Manage your subscription" link's page. */
  preferences: '/newsletter/preferences',
  /** A mailed "download my data" link's page. */
  privacyDownload: '/newsletter/privacy/download',
  /** A mailed "erase my data" link's page, with the final confirmation. */
  privacyErasure: '/newsletter/privacy/erase',
} as const;

/**
 * A newsletter page at its address in `locale`, as the site publishes each
 * language (English at the root, the others below `/fr/`, `/ar/`): a mail
 * link then opens the page and its whole shell in the recipient's language.
 */
export function newsletterPagePath(
  page: (typeof NEWSLETTER_PAGES)[keyof typeof NEWSLETTER_PAGES],
  locale: Locale,
): string {
  return locale === DEFAULT_LOCALE ? page : `/${locale}${page}`;
}

/**
 * A test send's unsubscribe links carry `?test=1` and no token: the page says
 * the mail was a test and that the link works for real recipients, and
 * nothing can unsubscribe the address the test went to.
 */
export const TEST_SEND_LINK_PARAM = 'test';

/**
 * The answer to every subscription request, whatever the address's state, so
 * the form never tells anyone whether an address is already on the list.
 */
export interface NewsletterSubscribeResponse {
  status: 'accepted';
}

export const NEWSLETTER_SUBSCRIBE_RESPONSE: NewsletterSubscribeResponse = { status: 'accepted' };

export interface NewsletterConfirmResponse {
  status: 'confirmed';
  /** The language the visitor subscribed in: the page shows its message in it. */
  locale: Locale;
}

export interface NewsletterUnsubscribeResponse {
  status: 'unsubscribed';
  locale: Locale;
}
