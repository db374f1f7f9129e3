import '@fontsource-variable/inter/wght.css';
import '@fontsource-variable/cairo/wght.css';
import { DEFAULT_LOCALE } from '@agency/contracts';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { i18n } from './app/i18n';
import { AppProviders } from './app/providers';
import { AppRoutes } from './app/router';
import { makeStore } from './app/store';
import { toLocale } from './lib/locale';

const container = document.getElementById('root');
if (!container) throw new Error('index.html must contain an element with id "root"');

// The app decides where a page starts (top, or its #anchor); the browser's own
// restoring would fight it once the sections below the hero arrive.
window.history.scrollRestoration = 'manual';

const app = (
  <StrictMode>
    <AppProviders store={makeStore()}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </AppProviders>
  </StrictMode>
);

// Public pages arrive prerendered in English (prerender.mjs). They are
// hydrated when they are what this visitor should see; otherwise (another
// language, or the shell of a client-side route) the app renders afresh.
const prerenderedPath = container.dataset.prerendered;
const hydrate =
  prerenderedPath === window.location.pathname && toLocale(i18n.language) === DEFAULT_LOCALE;

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
