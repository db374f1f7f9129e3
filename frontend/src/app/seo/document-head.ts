import type { Locale } from '@agency/contracts';
import { i18n } from '../i18n';
import { loadHeadTexts } from './head-texts';
import { buildPageHead, type PageHead } from './page-head';
import { sitePageOf } from './site-pages';

/** Replaces the page's own `<head>` elements (those marked `data-head`) with `head`'s. */
export function applyPageHead(head: PageHead): void {
  document.title = head.title;
  for (const element of document.head.querySelectorAll('[data-head]')) element.remove();
  for (const { tag, attributes, text } of head.tags) {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    element.setAttribute('data-head', '');
    if (text !== undefined) element.textContent = text;
    document.head.append(element);
  }
}

/**
 * The head of the page at `path` (below the language prefix), for a page the
 * browser shows without its prerendered HTML: after a navigation, or at an
 * address that is not prerendered (`/services/meta-ads`, a 404). The site's
 * public origin is the page's own.
 */
export async function loadPageHead(path: string, locale: Locale): Promise<PageHead> {
  const page = sitePageOf(path);
  const texts = await loadHeadTexts(i18n, page, locale);
  return buildPageHead(page, locale, window.location.origin, texts);
}
