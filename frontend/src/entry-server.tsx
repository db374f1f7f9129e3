import createCache from '@emotion/cache';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { i18n } from './app/i18n';
import { AppProviders } from './app/providers';
import { AppRoutes } from './app/router';
import { makeStore } from './app/store';
import { preloadAllLazyComponents } from './lib/preloadable-lazy';

/**
 * Build-time rendering of a public page (frontend/prerender.mjs): the HTML a
 * visitor sees before any script has run, which the browser then hydrates.
 * Pages are prerendered in English, the default language.
 */
export async function renderPage(url: string): Promise<string> {
  await i18n.changeLanguage('en');
  // Nothing suspends, so the HTML needs no script to reveal late content.
  await preloadAllLazyComponents();
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppProviders store={makeStore()} emotionCache={createCache({ key: 'mui' })}>
        <StaticRouter location={url}>
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
  return Buffer.concat(chunks).toString('utf8');
}
