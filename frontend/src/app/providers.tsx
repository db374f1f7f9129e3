import { directionOf } from '@agency/contracts';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import CloseIcon from '@mui/icons-material/Close';
import CssBaseline from '@mui/material/CssBaseline';
import IconButton from '@mui/material/IconButton';
import { ThemeProvider } from '@mui/material/styles';
import { closeSnackbar, SnackbarProvider, type SnackbarKey } from 'notistack';
import { useEffect, useMemo, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { Provider as ReduxProvider } from 'react-redux';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';
import { useLocale } from '../lib/locale';
import { STORAGE_KEYS, writeStorage } from '../lib/storage';
import { useAppSelector } from './hooks';
import { i18n } from './i18n';
import type { AppStore } from './store';
import { createAppTheme } from './theme';

/**
 * Two emotion caches with different keys: the RTL one flips left/right in every
 * generated rule, so switching language to Arabic mirrors the whole layout.
 */
const EMOTION_CACHES = {
  ltr: createCache({ key: 'mui' }),
  rtl: createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] }),
};

function CloseToastButton({ id }: { id: SnackbarKey }) {
  const { t } = useTranslation();
  return (
    <IconButton
      size="small"
      color="inherit"
      aria-label={t('common.close')}
      onClick={() => closeSnackbar(id)}
    >
      <CloseIcon fontSize="small" />
    </IconButton>
  );
}

/** Theme, direction and toasts: everything that depends on the language and theme preference. */
function ThemedProviders({ children }: { children: ReactNode }) {
  const direction = directionOf(useLocale());
  const themeMode = useAppSelector((state) => state.preferences.themeMode);
  const theme = useMemo(() => createAppTheme(themeMode, direction), [themeMode, direction]);

  useEffect(() => {
    writeStorage(STORAGE_KEYS.theme, themeMode);
  }, [themeMode]);

  return (
    <CacheProvider value={EMOTION_CACHES[direction]}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <SnackbarProvider
          maxSnack={3}
          autoHideDuration={6000}
          anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
          action={(id) => <CloseToastButton id={id} />}
        >
          {children}
        </SnackbarProvider>
      </ThemeProvider>
    </CacheProvider>
  );
}

export interface AppProvidersProps {
  store: AppStore;
  children: ReactNode;
}

/** Every app-wide context, in one place so the app and the tests render the same tree. */
export function AppProviders({ store, children }: AppProvidersProps) {
  return (
    <ReduxProvider store={store}>
      <I18nextProvider i18n={i18n}>
        <ThemedProviders>{children}</ThemedProviders>
      </I18nextProvider>
    </ReduxProvider>
  );
}
