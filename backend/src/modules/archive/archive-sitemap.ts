import { LOCALES, type Locale } from '@agency/contracts';
import { escapeHtml } from '@agency/platform';
import { archivePath, originOf } from './archive-addresses';

interface ArchivedAddress {
  id: string;
  locales: Locale[];
  sentAt: string;
}

function urlEntry(
  origin: string,
  paths: Partial<Record<Locale, string>>,
  locale: Locale,
  lastmod?: string,
) {
  const alternates = Object.entries(paths).map(
    ([lang, path]) =>
      `<xhtml:link rel="alternate" hreflang="${lang}" href="${escapeHtml(origin + path)}"/>`,
  );
  return [
    '<url>',
    `<loc>${escapeHtml(origin + (paths[locale] ?? ''))}</loc>`,
    lastmod ? `<lastmod>${lastmod}</lastmod>` : '',
    ...alternates,
    '</url>',
  ].join('');
}

/**
 * The archive's sitemap: its index and each published campaign in every
 * language it is written in, with their alternates. robots.txt names it
 * beside the site's own sitemap, which is written at build time and cannot
 * know what is published later.
 */
export function archiveSitemap(addresses: ArchivedAddress[], siteUrl: string): string {
  const origin = originOf(siteUrl);
  const indexPaths = Object.fromEntries(LOCALES.map((locale) => [locale, archivePath(locale)]));
  const urls = LOCALES.map((locale) => urlEntry(origin, indexPaths, locale));
  for (const { id, locales, sentAt } of addresses) {
    const paths = Object.fromEntries(locales.map((locale) => [locale, archivePath(locale, id)]));
    urls.push(...locales.map((locale) => urlEntry(origin, paths, locale, sentAt.slice(0, 10))));
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}
