import { directionOf } from '@agency/contracts';
import type { EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/system';
import { lazy, Suspense, use, useEffect, useMemo, useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Provider as ReduxProvider } from 'react-redux';
import { useLocale } from '../lib/locale';
import { prefersReducedMotion } from '../lib/motion';
import { useHydrating } from '../lib/use-hydrating';
import { useMounted } from '../lib/use-mounted';
import { STORAGE_KEYS, writeStorage } from '../lib/storage';
import { LTR_CACHE, loadRtlCache } from './emotion-caches';
import { useAppSelector } from '../lib/hooks';
import { i18n } from './i18n';
import type { AppStore } from './store';
import { createAppTheme } from './theme';

// Toasts only follow a visitor's action, so their library loads after the page.
const Toaster = lazy(() => import('./toaster').then((module) => ({ default: module.Toaster })));

/** Theme, direction and toasts: everything that depends on the language and theme preference. */
function ThemedProviders({ children, cache }: { children: ReactNode; cache?: EmotionCache }) {
  const direction = directionOf(useLocale());
  const themeMode = useAppSelector((state) => state.preferences.themeMode);
  const mounted = useMounted();
  const hydrating = useHydrating();
  // Read once: a change of the system setting is taken at the next page load
  // (useMediaQuery would add its code to every visitor's first load). A
  // prerendered page keeps the theme it was rendered with: a new theme would
  // make React rebuild, rather than hydrate, the parts still waiting for their
  // code (the sections below the hero). The stylesheet stops its motion.
  const [reducedMotion] = useState(() => !hydrating && prefersReducedMotion());
  const theme = useMemo(
    () => createAppTheme(themeMode, direction, reducedMotion),
    [themeMode, direction, reducedMotion],
  );
  // Suspends only while the right-to-left styling code loads (first Arabic render).
  const emotionCache = cache ?? (direction === 'rtl' ? use(loadRtlCache()) : LTR_CACHE);

  useEffect(() => {
    writeStorage(STORAGE_KEYS.theme, themeMode);
  }, [themeMode]);

  return (
    <CacheProvider value={emotionCache}>
      {/* @mui/system's provider, not @mui/material's: the theme has no CSS
          variables or colour schemes, and Material's provider would bring
          their code to every first load (about 3 KB gzipped), unused. */}
      <ThemeProvider theme={theme}>
        <CssBaseline />
        {children}
        {mounted ? (
          <Suspense fallback={null}>
            <Toaster />
          </Suspense>
        ) : null}
      </ThemeProvider>
    </CacheProvider>
  );
}

export interface AppProvidersProps {
  store: AppStore;
  children: ReactNode;
  /**
   * Replaces the browser's caches (for the page's direction): the prerender
   * gives each page a fresh one, so each page carries all its styles.
   */
  emotionCache?: EmotionCache;
}

/** Every app-wide context, in one place so the app and the tests render the same tree. */
export function AppProviders({ store, children, emotionCache }: AppProvidersProps) {
  return (
    <ReduxProvider store={store}>
      <I18nextProvider i18n={i18n}>
        {/* A first visit in French or Arabic waits here for that language's texts. */}
        <Suspense fallback={null}>
          <ThemedProviders cache={emotionCache}>{children}</ThemedProviders>
        </Suspense>
      </I18nextProvider>
    </ReduxProvider>
  );
}
