import { DEFAULT_LOCALE, LOCALES } from '@agency/contracts';
import { localizePath } from '../../lib/site-locale';
import { siteOrigin } from './page-head';
import { isIndexable, PRERENDERED_PAGES } from './site-pages';

/** Every address the sitemap lists: each indexable prerendered page, in each language. */
export function sitemapAddresses(siteUrl: string): string[] {
  const origin = siteOrigin(siteUrl);
  return PRERENDERED_PAGES.filter(isIndexable).flatMap((page) =>
    LOCALES.map((locale) => `${origin}${localizePath(page.path, locale)}`),
  );
}

/** sitemap.xml: every indexable page in every language, each with its alternates. */
export function buildSitemap(siteUrl: string): string {
  const origin = siteOrigin(siteUrl);
  const urls = PRERENDERED_PAGES.filter(isIndexable).flatMap((page) => {
    const alternates = [
      ...LOCALES.map((locale) => [locale, localizePath(page.path, locale)] as const),
      ['x-default', localizePath(page.path, DEFAULT_LOCALE)] as const,
    ]
      .map(
        ([hreflang, path]) =>
          `    <xhtml:link rel="alternate" hreflang="${hreflang}" href="${origin}${path}"/>`,
      )
      .join('\n');
    return LOCALES.map(
      (locale) =>
        `  <url>\n    <loc>${origin}${localizePath(page.path, locale)}</loc>\n${alternates}\n  </url>`,
    );
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

/** robots.txt: the public pages open to crawlers, the admin area and the API not, and the sitemap. */
export function buildRobots(siteUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /admin',
    'Disallow: /api',
    '',
    `Sitemap: ${siteOrigin(siteUrl)}/sitemap.xml`,
    // The newsletter archive's pages, published after the build: the API lists them.
    `Sitemap: ${siteOrigin(siteUrl)}/newsletter/sitemap.xml`,
    '',
  ].join('\n');
}
