import { directionOf, LOCALES, type Locale } from '@agency/contracts';
import createCache from '@emotion/cache';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { createRtlCache } from './app/emotion-caches';
import { i18n } from './app/i18n';
import { AppProviders } from './app/providers';
import { AppRoutes } from './app/router';
import { loadHeadTexts } from './app/seo/head-texts';
import { buildPageHead, headTagsHtml } from './app/seo/page-head';
import { PRERENDERED_PAGES, type SitePage } from './app/seo/site-pages';
import { makeStore } from './app/store';
import { preloadAllLazyComponents } from './lib/preloadable-lazy';
import { basenameOf, localizePath } from './lib/site-locale';

export { buildRobots, buildSitemap } from './app/seo/sitemap';
export { HEAD_ADDRESS_ATTRIBUTE } from './app/seo/page-head-sync';

/** One page of the public site in one language, as frontend/prerender.mjs writes it. */
export interface PrerenderedPage {
  /** The address it is served at: `/`, `/services`, `/fr/`, `/ar/portfolio`... */
  address: string;
  /** Its file in dist/: `home.html` (index.html is the shell), `fr/index.html`, `fr/services.html`... */
  file: string;
  locale: Locale;
  page: SitePage;
}

/** Every prerendered page in every language. */
export function prerenderedPages(): PrerenderedPage[] {
  return LOCALES.flatMap((locale) =>
    PRERENDERED_PAGES.map((page) => {
      const address = localizePath(page.path, locale);
      const file =
        page.path === '/'
          ? address === '/'
            ? 'home.html'
            : `${address.slice(1)}index.html`
          : `${address.slice(1)}.html`;
      return { address, file, locale, page };
    }),
  );
}

export interface RenderedPage {
  /** The app's HTML, for `<div id="root">`. */
  body: string;
  /** The page's own `<head>` elements: title, description, canonical, alternates, cards, JSON-LD. */
  head: string;
  lang: Locale;
  dir: 'ltr' | 'rtl';
}

/**
 * Build-time rendering of a public page in its language: the HTML a visitor
 * (or a search engine) reads before any script has run, which the browser
 * then hydrates. `siteUrl` is the site's public origin (SITE_URL), which the
 * canonical and alternate addresses are written with.
 */
export async function renderPage(
  { address, locale, page }: PrerenderedPage,
  siteUrl: string,
): Promise<RenderedPage> {
  await i18n.changeLanguage(locale);
  // Nothing suspends, so the HTML needs no script to reveal late content.
  await preloadAllLazyComponents();
  const rtl = directionOf(locale) === 'rtl';
  // A fresh cache per page, so each page carries every style it uses.
  const emotionCache = rtl ? await createRtlCache() : createCache({ key: 'mui' });
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppProviders store={makeStore()} emotionCache={emotionCache}>
        <StaticRouter basename={basenameOf(locale)} location={address}>
          <AppRoutes />
        </StaticRouter>
      </AppProviders>
    </StrictMode>,
    // One piece: a boundary larger than a chunk would be sent "outlined", revealed by an
    // inline script that the site's Content-Security-Policy (rightly) does not allow.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  const head = buildPageHead(page, locale, siteUrl, await loadHeadTexts(i18n, page, locale));
  return {
    body: Buffer.concat(chunks).toString('utf8'),
    head: headTagsHtml(head),
    lang: head.lang,
    dir: head.dir,
  };
}
