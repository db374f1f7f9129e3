import { createHash } from 'node:crypto';
import {
  LOCALES,
  directionOf,
  type ArchiveCampaignDto,
  type ArchiveEntryDto,
  type Locale,
} from '@agency/contracts';
import { escapeHtml } from '@agency/platform';
import { archiveFeedPath, archivePath, originOf } from './archive-addresses';
import { ARCHIVE_TEXTS } from './archive-texts';

/**
 * The pages' only style, inline so a page is one request and reads in full
 * without any script. Colours keep a contrast above 7:1.
 */
const STYLE = [
  'body{margin:0;font:16px/1.6 system-ui,-apple-system,"Segoe UI",Tahoma,sans-serif;color:#1a1a1a;background:#fff}',
  'header,main,footer{max-width:44rem;margin:0 auto;padding:1rem}',
  'a{color:#0b4f9c}',
  'img{max-width:100%;height:auto}',
  'ol{list-style:none;padding:0}li{margin:0 0 1.5rem}',
  'nav ul{list-style:none;padding:0;display:flex;gap:1rem;flex-wrap:wrap}',
  'time,.summary{color:#444}',
].join('');

/** The Content-Security-Policy of an archive page: its one style, images, nothing that runs. */
export const ARCHIVE_PAGE_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  'img-src https: data:',
  // Nothing of the page fetches; crawlers' tools (Lighthouse) read robots.txt from within it.
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

interface PageFrame {
  locale: Locale;
  siteUrl: string;
  title: string;
  description: string;
  /** This page's address in each language it exists in. */
  alternates: Partial<Record<Locale, string>>;
  body: string;
  /** A page search engines should not keep (an address the archive does not hold). */
  noindex?: boolean;
}

function headOf(frame: PageFrame): string {
  const { locale, siteUrl, title, description, alternates } = frame;
  const origin = originOf(siteUrl);
  const canonical = frame.noindex
    ? '<meta name="robots" content="noindex">'
    : `<link rel="canonical" href="${origin}${alternates[locale] ?? archivePath(locale)}">`;
  const links = Object.entries(alternates).map(
    ([lang, path]) => `<link rel="alternate" hreflang="${lang}" href="${origin}${path}">`,
  );
  const fallback = alternates.en ?? Object.values(alternates)[0];
  if (fallback)
    links.push(`<link rel="alternate" hreflang="x-default" href="${origin}${fallback}">`);
  return [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(description)}">`,
    canonical,
    ...(frame.noindex ? [] : links),
    `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(ARCHIVE_TEXTS[locale].feed)}" href="${origin}${archiveFeedPath(locale)}">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:description" content="${escapeHtml(description)}">`,
    `<meta property="og:url" content="${origin}${alternates[locale] ?? archivePath(locale)}">`,
    `<style>${STYLE}</style>`,
  ].join('\n');
}

/** The links to this page in the other languages it exists in. */
function languageLinks(locale: Locale, alternates: Partial<Record<Locale, string>>): string {
  const others = LOCALES.filter((other) => other !== locale && alternates[other]);
  if (others.length === 0) return '';
  const items = others.map(
    (other) =>
      `<li><a href="${alternates[other]}" hreflang="${other}" lang="${other}">${ARCHIVE_TEXTS[other].languageName}</a></li>`,
  );
  return `<nav aria-label="${escapeHtml(ARCHIVE_TEXTS[locale].languages)}"><ul>${items.join('')}</ul></nav>`;
}

function pageOf(frame: PageFrame): string {
  const { locale, alternates, body } = frame;
  const texts = ARCHIVE_TEXTS[locale];
  const home = locale === 'en' ? '/' : `/${locale}/`;
  return [
    '<!doctype html>',
    `<html lang="${locale}" dir="${directionOf(locale)}">`,
    `<head>\n${headOf(frame)}\n</head>`,
    '<body>',
    `<header><nav aria-label="${escapeHtml(texts.title)}"><ul><li><a href="${home}">${escapeHtml(texts.home)}</a></li><li><a href="${archivePath(locale)}">${escapeHtml(texts.back)}</a></li><li><a href="${archiveFeedPath(locale)}" type="application/atom+xml">${escapeHtml(texts.feed)}</a></li></ul></nav></header>`,
    `<main>${body}</main>`,
    `<footer>${languageLinks(locale, alternates)}<p><a href="${home}privacy">${escapeHtml(texts.privacy)}</a></p></footer>`,
    '</body>',
    '</html>',
  ].join('\n');
}

/** A date as the language writes it, on one calendar for every visitor. */
function dateOf(iso: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(iso),
  );
}

function sentTime(iso: string, locale: Locale): string {
  return `${escapeHtml(ARCHIVE_TEXTS[locale].sentOn)} <time datetime="${iso}">${escapeHtml(dateOf(iso, locale))}</time>`;
}

function entryItem(entry: ArchiveEntryDto, locale: Locale): string {
  return [
    '<li><article>',
    `<h2><a href="${archivePath(locale, entry.id)}">${escapeHtml(entry.subject)}</a></h2>`,
    `<p>${sentTime(entry.sentAt, locale)}</p>`,
    entry.summary ? `<p class="summary">${escapeHtml(entry.summary)}</p>` : '',
    '</article></li>',
  ].join('');
}

/** The archive's index page in one language. */
export function archiveIndexPage(
  locale: Locale,
  entries: ArchiveEntryDto[],
  siteUrl: string,
): string {
  const texts = ARCHIVE_TEXTS[locale];
  const list = entries.length
    ? `<ol>${entries.map((entry) => entryItem(entry, locale)).join('')}</ol>`
    : `<p>${escapeHtml(texts.empty)}</p>`;
  return pageOf({
    locale,
    siteUrl,
    title: texts.title,
    description: texts.description,
    alternates: Object.fromEntries(LOCALES.map((other) => [other, archivePath(other)])),
    body: `<h1>${escapeHtml(texts.title)}</h1>${list}`,
  });
}

/** One campaign's page in one language. Its HTML was sanitised as the mail's is. */
export function archiveCampaignPage(campaign: ArchiveCampaignDto, siteUrl: string, locale: Locale) {
  return pageOf({
    locale,
    siteUrl,
    title: `${campaign.subject} | ${ARCHIVE_TEXTS[locale].title}`,
    description: campaign.summary || ARCHIVE_TEXTS[locale].description,
    alternates: Object.fromEntries(
      campaign.locales.map((other) => [other, archivePath(other, campaign.id)]),
    ),
    body: [
      '<article>',
      `<h1>${escapeHtml(campaign.subject)}</h1>`,
      `<p>${sentTime(campaign.sentAt, locale)}</p>`,
      `<div>${campaign.html}</div>`,
      '</article>',
    ].join(''),
  });
}

/** The page of an address the archive does not hold (unknown, unpublished, or not in this language). */
export function archiveNotFoundPage(locale: Locale, siteUrl: string): string {
  const texts = ARCHIVE_TEXTS[locale];
  return pageOf({
    locale,
    siteUrl,
    title: `${texts.notFound} | ${texts.title}`,
    description: texts.description,
    alternates: { [locale]: archivePath(locale) },
    noindex: true,
    body: `<h1>${escapeHtml(texts.notFound)}</h1><p><a href="${archivePath(locale)}">${escapeHtml(texts.back)}</a></p>`,
  });
}
