import { act, render, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { MemoryRouter, useLocation, type Location } from 'react-router-dom';
import { ApiBoundary } from '../app/api-boundary';
import { AppProviders } from '../app/providers';
import { AppRoutes } from '../app/router';
import { makeStore, type AppStore } from '../app/store';
import { i18n } from '../app/i18n';
import { basenameOf, siteLocaleOf } from '../lib/site-locale';
import createCache, { type EmotionCache } from '@emotion/cache';

/**
 * An emotion cache that keeps styles out of the document. jsdom parses every
 * inserted rule and reads them all again for each role query; for the admin
 * screens (MUI, DataGrid) that was most of the suites' time. Tests that use it
 * check structure, text and behaviour, not looks (the e2e suite renders for real).
 */
function unstyledCache(): EmotionCache {
  const cache = createCache({ key: 'mui', speedy: true });
  cache.sheet.insert = () => undefined;
  return cache;
}

/** For tests of texts, states, addresses and requests rather than looks. */
export const UNSTYLED = { styles: false } as const;

export interface RenderOptions {
  /** The address the memory router starts at. */
  path?: string;
  store?: AppStore;
  /** False: render without inserting stylesheets (see unstyledCache). */
  styles?: boolean;
}

export interface ProvidersRenderResult extends RenderResult {
  store: AppStore;
  user: UserEvent;
  /** Where the router is now (after navigations the test caused). */
  location: () => Location;
}

async function renderInRouter(
  ui: ReactElement,
  path: string,
  store: AppStore,
  styles: boolean,
): Promise<ProvidersRenderResult> {
  let current: Location | undefined;
  function LocationProbe() {
    current = useLocation();
    return null;
  }
  // A page below a language's prefix (`/fr/...`) is in that language, as in the browser.
  const locale = siteLocaleOf(path.split(/[?#]/)[0] ?? '/');
  const basename = locale && path.startsWith(`/${locale}/`) ? basenameOf(locale) : undefined;
  if (basename && locale) await i18n.changeLanguage(locale);
  // No artificial delay between keystrokes: the suites type whole forms.
  const user = userEvent.setup({ delay: null });
  // Async act: the page's lazily loaded chunks (and texts) resolve before the test goes on,
  // as they would before a visitor could use the page.
  let result: RenderResult | undefined;
  await act(async () => {
    result = render(
      <AppProviders store={store} emotionCache={styles ? undefined : unstyledCache()}>
        <MemoryRouter basename={basename} initialEntries={[path]}>
          {ui}
          <LocationProbe />
        </MemoryRouter>
      </AppProviders>,
    );
  });
  if (!result) throw new Error('render did not run');
  const location = () => {
    if (!current) throw new Error('The router has not rendered yet');
    return current;
  };
  return { ...result, store, user, location };
}

/** Renders one component inside the app's providers and a memory router. */
export function renderWithProviders(
  ui: ReactElement,
  { path = '/', store = makeStore(), styles = true }: RenderOptions = {},
): Promise<ProvidersRenderResult> {
  // The app connects the API where a lazy page needs it; a lone component gets it here.
  return renderInRouter(<ApiBoundary>{ui}</ApiBoundary>, path, store, styles);
}

/** Renders the whole app (every route of app/router.tsx) at `path`. */
export function renderApp(
  path = '/',
  { store = makeStore(), styles = true }: Omit<RenderOptions, 'path'> = {},
): Promise<ProvidersRenderResult> {
  return renderInRouter(<AppRoutes />, path, store, styles);
}
