import type { Locale } from '@agency/contracts';

/**
 * The archive's public addresses on the website, in the site's language
 * scheme: English at the root, French and Arabic below `/fr/` and `/ar/`.
 * The website forwards them to the API's archive pages (nginx.conf,
 * vite.config.ts).
 */
export function archivePath(locale: Locale, id?: string): string {
  const prefix = locale === 'en' ? '' : `/${locale}`;
  return `${prefix}/newsletter${id ? `/${id}` : ''}`;
}

export function archiveFeedPath(locale: Locale): string {
  return `${archivePath(locale)}/feed.xml`;
}

/** The site's public origin without a trailing slash. */
export function originOf(siteUrl: string): string {
  return siteUrl.replace(/\/+$/, '');
}
