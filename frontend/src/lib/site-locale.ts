import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '@agency/contracts';

/**
 * Each language of the public site has its own addresses, so that search
 * engines can index it and a shared link opens the language it was shared in:
 * English at the root (`/`, `/services`), the others under their code
 * (`/fr/`, `/fr/services`, `/ar/`...). The admin area is not part of it: it
 * keeps the visitor's stored or browser language.
 */

/** The languages whose addresses carry their code, in the order of LOCALES. */
export const PREFIXED_LOCALES: readonly Locale[] = LOCALES.filter(
  (locale) => locale !== DEFAULT_LOCALE,
);

const ADMIN_AREA = /^\/admin(?:\/|$)/;

/**
 * The language of a public address, from its first segment; null for the
 * admin area, whose language is detected as before (stored choice, browser).
 */
export function siteLocaleOf(pathname: string): Locale | null {
  if (ADMIN_AREA.test(pathname)) return null;
  const first = pathname.split('/')[1];
  return isLocale(first) && first !== DEFAULT_LOCALE ? first : DEFAULT_LOCALE;
}

/**
 * The router's basename for a language. The trailing slash makes links to the
 * home page `/fr/`, the address the French home page is published at.
 */
export function basenameOf(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '/' : `/${locale}/`;
}

/** `path` (an address of the English site, such as `/services`) in `locale`. */
export function localizePath(path: string, locale: Locale): string {
  return locale === DEFAULT_LOCALE ? path : `/${locale}${path}`;
}
