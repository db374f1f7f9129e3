import {
  API_ROUTES,
  NEWSLETTER_PAGES,
  TEST_SEND_LINK_PARAM,
  newsletterPagePath,
  type Locale,
} from '@agency/contracts';
import type { SendMailOptions } from 'nodemailer';

function siteLink(siteUrl: string, path: string, query: Record<string, string>): string {
  const url = new URL(path, `${siteUrl}/`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** The site's page that confirms a subscription, opened in the language the visitor chose. */
export function confirmationPageUrl(siteUrl: string, token: string, locale: Locale): string {
  return siteLink(siteUrl, NEWSLETTER_PAGES.confirm, { token, lang: locale });
}

/** The site's page with the unsubscribe button: the link in the mail's footer. */
export function unsubscribePageUrl(siteUrl: string, token: string, locale: Locale): string {
  return siteLink(siteUrl, NEWSLETTER_PAGES.unsubscribe, { token, lang: locale });
}

/**
 * The "Manage your subscription" link: the preference page at its address in
 * the recipient's language, with its own token.
 */
export function managePageUrl(siteUrl: string, token: string, locale: Locale): string {
  return siteLink(siteUrl, newsletterPagePath(NEWSLETTER_PAGES.preferences, locale), {
    token,
    lang: locale,
  });
}

/**
 * A test send's unsubscribe link: the same page, which says the mail was a
 * test. No token, so it cannot unsubscribe the staff member it went to.
 */
export function testSendUnsubscribeUrl(siteUrl: string, locale: Locale): string {
  return siteLink(siteUrl, NEWSLETTER_PAGES.unsubscribe, {
    [TEST_SEND_LINK_PARAM]: '1',
    lang: locale,
  });
}

/**
 * A test send's manage link, made as its unsubscribe link is: the preference
 * page with no token, so a test mail forwarded around opens nobody's
 * preferences, the staff member's included.
 */
export function testSendManageUrl(siteUrl: string, locale: Locale): string {
  return siteLink(siteUrl, newsletterPagePath(NEWSLETTER_PAGES.preferences, locale), {
    [TEST_SEND_LINK_PARAM]: '1',
    lang: locale,
  });
}

/** The API's one-click unsubscribe address (through the site's /api), for List-Unsubscribe. */
export function oneClickUnsubscribeUrl(siteUrl: string, token: string): string {
  return siteLink(siteUrl, API_ROUTES.newsletterUnsubscribe, { token });
}

/**
 * The List-Unsubscribe headers every newsletter and campaign mail carries.
 * The address is the API's (through the site's /api): a mailbox provider
 * POSTs `List-Unsubscribe=One-Click` to it (RFC 8058) and the subscriber is
 * removed at once; a browser opening it is sent to the page with the button.
 * When mail is DKIM-signed, the signature must cover both headers.
 */
export function listUnsubscribeHeaders(
  siteUrl: string,
  token: string,
): Pick<SendMailOptions, 'list' | 'headers'> {
  return {
    list: { unsubscribe: oneClickUnsubscribeUrl(siteUrl, token) },
    headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}
/**
 * One page's link for many tokens: the page's address is made once by
 * `link` (its first query parameter the token, left empty), and each token is
 * then set into it. A link token (a JWS: base64url and dots) is a query value
 * as it is; any other is made by `link` itself. A campaign makes three such
 * links per mail, and `URL` with its query parsing cost more than the token.
 */
export function tokenLinks(link: (token: string) => string): (token: string) => string {
  const empty = link('');
  const valueAt = empty.indexOf('?token=') + '?token='.length;
  const [before, after] = [empty.slice(0, valueAt), empty.slice(valueAt)];
  const usable = valueAt >= '?token='.length && (after === '' || after.startsWith('&'));
  return (token) => (usable && URL_SAFE_TOKEN.test(token) ? before + token + after : link(token));
}

const URL_SAFE_TOKEN = /^[A-Za-z0-9_.-]+$/;
