import { DEFAULT_LOCALE, directionOf, LOCALES, type Locale } from '@agency/contracts';
import { localizePath } from '../../lib/site-locale';
import type { SitePage } from './site-pages';
import { agencyData, breadcrumbData, faqData, type FaqEntry, type JsonLd } from './structured-data';

/** The image shared links show (frontend/public/og-image.png). */
export const SHARE_IMAGE = { path: '/og-image.png', width: 1200, height: 630, type: 'image/png' };

/** Open Graph names a language with its region. */
const OG_LOCALES: Record<Locale, string> = { en: 'en_US', fr: 'fr_FR', ar: 'ar_AR' };
const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', fr: 'French', ar: 'Arabic' };

/** The words of a page's head, in its language (gathered by head-texts.ts). */
export interface HeadTexts {
  siteName: string;
  title: string;
  description: string;
  organizationDescription: string;
  shareImageAlt: string;
  /** The home page's name in the breadcrumb trail. */
  homeName: string;
  /** The page's own name in the trail, for inner pages. */
  breadcrumbName?: string;
  /** The home page's FAQ. */
  faq: readonly FaqEntry[];
}

/** One element of `<head>` that belongs to a page (a `data-head` attribute marks it). */
export interface HeadTag {
  tag: 'meta' | 'link' | 'script';
  attributes: Record<string, string>;
  /** A script's text (JSON-LD). */
  text?: string;
}

export interface PageHead {
  lang: Locale;
  dir: 'ltr' | 'rtl';
  title: string;
  tags: HeadTag[];
  jsonLd: JsonLd[];
}

/** The site's origin as configured (SITE_URL), without a trailing slash. */
export function siteOrigin(siteUrl: string): string {
  return siteUrl.replace(/\/+$/, '');
}

const meta = (key: 'name' | 'property', name: string, content: string): HeadTag => ({
  tag: 'meta',
  attributes: { [key]: name, content },
});
const link = (attributes: Record<string, string>): HeadTag => ({ tag: 'link', attributes });

/** The absolute addresses a page's head names, all under the configured origin. */
interface PageAddresses {
  origin: string;
  /** The page's canonical address in its language (its own address when not indexed). */
  url: string;
  shareImage: string;
  /** An English path's absolute address in a language. */
  address: (path: string, language: Locale) => string;
}

function pageAddresses(page: SitePage, locale: Locale, siteUrl: string): PageAddresses {
  const origin = siteOrigin(siteUrl);
  const address = (path: string, language: Locale) => `${origin}${localizePath(path, language)}`;
  return {
    origin,
    url: address(page.canonicalPath ?? page.path, locale),
    shareImage: `${origin}${SHARE_IMAGE.path}`,
    address,
  };
}

/** Canonical address and its other languages for an indexed page; noindex for the rest. */
function indexingTags(page: SitePage, { url, address }: PageAddresses): HeadTag[] {
  const { canonicalPath } = page;
  if (canonicalPath === undefined) return [meta('name', 'robots', 'noindex')];
  return [
    link({ rel: 'canonical', href: url }),
    ...LOCALES.map((language) =>
      link({ rel: 'alternate', hreflang: language, href: address(canonicalPath, language) }),
    ),
    link({
      rel: 'alternate',
      hreflang: 'x-default',
      href: address(canonicalPath, DEFAULT_LOCALE),
    }),
  ];
}

/** The Open Graph and Twitter card a shared link shows. */
function shareTags(
  locale: Locale,
  texts: HeadTexts,
  { url, shareImage }: PageAddresses,
): HeadTag[] {
  return [
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', texts.siteName),
    meta('property', 'og:title', texts.title),
    meta('property', 'og:description', texts.description),
    meta('property', 'og:url', url),
    meta('property', 'og:locale', OG_LOCALES[locale]),
    ...LOCALES.filter((language) => language !== locale).map((language) =>
      meta('property', 'og:locale:alternate', OG_LOCALES[language]),
    ),
    meta('property', 'og:image', shareImage),
    meta('property', 'og:image:type', SHARE_IMAGE.type),
    meta('property', 'og:image:width', String(SHARE_IMAGE.width)),
    meta('property', 'og:image:height', String(SHARE_IMAGE.height)),
    meta('property', 'og:image:alt', texts.shareImageAlt),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', texts.title),
    meta('name', 'twitter:description', texts.description),
    meta('name', 'twitter:image', shareImage),
    meta('name', 'twitter:image:alt', texts.shareImageAlt),
  ];
}

/** The structured data of an indexed page: the agency, the home FAQ, the breadcrumb trail. */
function structuredData(
  page: SitePage,
  locale: Locale,
  texts: HeadTexts,
  { origin, url, shareImage, address }: PageAddresses,
): JsonLd[] {
  if (page.canonicalPath === undefined) return [];
  const home = address('/', locale);
  const jsonLd: JsonLd[] = [
    agencyData({
      name: texts.siteName,
      description: texts.organizationDescription,
      url: home,
      siteUrl: origin,
      image: shareImage,
      languages: LOCALES.map((language) => LANGUAGE_NAMES[language]),
    }),
  ];
  if (page.key === 'home') jsonLd.push(faqData(texts.faq, locale));
  if (texts.breadcrumbName !== undefined) {
    jsonLd.push(
      breadcrumbData([
        { name: texts.homeName, url: home },
        { name: texts.breadcrumbName, url },
      ]),
    );
  }
  return jsonLd;
}

const jsonLdScript = (data: JsonLd): HeadTag => ({
  tag: 'script',
  attributes: { type: 'application/ld+json' },
  // `<` escaped: no text in the data can close the script element.
  text: JSON.stringify(data).replace(/</g, '\\u003c'),
});

/**
 * Everything a page says about itself in `<head>`, in one language: title and
 * description, canonical address and its other languages (hreflang), the
 * Open Graph and Twitter card of a shared link, and its structured data.
 */
export function buildPageHead(
  page: SitePage,
  locale: Locale,
  siteUrl: string,
  texts: HeadTexts,
): PageHead {
  const addresses = pageAddresses(page, locale, siteUrl);
  const jsonLd = structuredData(page, locale, texts, addresses);
  const tags: HeadTag[] = [
    meta('name', 'description', texts.description),
    ...indexingTags(page, addresses),
    ...shareTags(locale, texts, addresses),
    ...jsonLd.map(jsonLdScript),
  ];
  return { lang: locale, dir: directionOf(locale), title: texts.title, tags, jsonLd };
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page's own `<head>` elements as HTML, for the prerendered page. */
export function headTagsHtml(head: PageHead): string {
  const tags = head.tags.map(({ tag, attributes, text }) => {
    const attributeText = Object.entries({ ...attributes, 'data-head': '' })
      .map(([name, value]) => (value === '' ? name : `${name}="${escapeHtml(value)}"`))
      .join(' ');
    return tag === 'script'
      ? `<script ${attributeText}>${text ?? ''}</script>`
      : `<${tag} ${attributeText}>`;
  });
  return [`<title>${escapeHtml(head.title)}</title>`, ...tags].join('\n    ');
}
