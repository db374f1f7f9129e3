import '@fontsource-variable/inter/wght.css';
import '@fontsource-variable/cairo/wght.css';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { AppProviders } from './app/providers';
import { AppRoutes } from './app/router';
import { makeStore } from './app/store';
import { basenameOf, siteLocaleOf } from './lib/site-locale';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain an element with id "root"');

// The app decides where a page starts (top, or its #anchor); the browser's own
// restoring would fight it once the sections below the hero arrive.
window.history.scrollRestoration = 'manual';

// A public page's language is its address's (`/fr/...`): the router works
// below that prefix, so every link of the page stays in its language.
const locale = siteLocaleOf(window.location.pathname);
// The servers send `/fr` on to `/fr/`; a page opened there some other way gets the same.
if (locale && window.location.pathname === `/${locale}`) {
  window.history.replaceState(
    null,
    '',
    `/${locale}/${window.location.search}${window.location.hash}`,
  );
}

const app = (
  <StrictMode>
    <AppProviders store={makeStore()}>
      <BrowserRouter basename={locale ? basenameOf(locale) : undefined}>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>
);

// Public pages arrive prerendered in their language (prerender.mjs) and are
// hydrated; the shell of a client-side route (admin, 404...) renders afresh.
const hydrate = container.dataset.prerendered === window.location.pathname;

// As a transition, the first render yields to the browser every few
// milliseconds instead of blocking it for the whole page.
if (hydrate) {
  // The prerendered page is painted first (a frame, then a task), then made live:
  // scripts that arrive fast must not hold back the page the visitor can already read.
  requestAnimationFrame(() =>
    setTimeout(() => startTransition(() => void hydrateRoot(container, app)), 0),
  );
} else {
  container.removeAttribute('data-prerendered');
  container.replaceChildren();
  startTransition(() => createRoot(container).render(app));
}
