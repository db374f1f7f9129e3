import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Suspense, type ErrorInfo, type ReactNode } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { PageLoader } from './page-loader';

/**
 * A page whose code could not be fetched (a deploy replaced its chunk, the
 * network dropped): React keeps a failed lazy import failed, so only a reload
 * fetches it again.
 */
export function isChunkLoadFailure(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'ChunkLoadError' ||
      /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
        error.message,
      ))
  );
}

/** Where a screen's crash goes: the browser console, with the component path to it. */
export function reportScreenError(error: unknown, info: ErrorInfo): void {
  console.error('A screen failed to render', error, info.componentStack);
}

function ScreenErrorFallback({ error, resetErrorBoundary }: FallbackProps) {
  const { t } = useTranslation();
  const reloadNeeded = isChunkLoadFailure(error);
  return (
    <Box sx={{ maxWidth: 640, mx: 'auto', py: { xs: 6, md: 10 }, px: 2 }}>
      {/* A plain box in the error colours, not MUI's Alert: this boundary is on
          every page's first load, and Alert brings its icons and Paper (about 4 KB). */}
      <Box
        role="alert"
        sx={{
          p: 3,
          borderRadius: 1,
          borderInlineStart: 4,
          borderColor: 'error.main',
          bgcolor: 'background.paper',
          color: 'text.primary',
        }}
      >
        <Typography variant="h5" component="h1" gutterBottom>
          {t('screenError.title')}
        </Typography>
        <Typography>{t(reloadNeeded ? 'screenError.reloadBody' : 'screenError.body')}</Typography>
        <Button
          variant="contained"
          sx={{ mt: 2 }}
          onClick={() => (reloadNeeded ? window.location.reload() : resetErrorBoundary())}
        >
          {t(reloadNeeded ? 'screenError.reload' : 'screenError.retry')}
        </Button>
      </Box>
    </Box>
  );
}

export interface ScreenErrorBoundaryProps {
  children: ReactNode;
}

/**
 * Keeps a failure in one page or admin screen inside that screen: the
 * navigation, sidebar and footer stay, the visitor reads what happened in
 * their language and can try again, and moving to another page clears it.
 */
export function ScreenErrorBoundary({ children }: ScreenErrorBoundaryProps) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary
      FallbackComponent={ScreenErrorFallback}
      onError={reportScreenError}
      resetKeys={[pathname]}
    >
      {children}
    </ErrorBoundary>
  );
}

/**
 * Where a layout shows the current page or admin screen: its chunk loads
 * behind the page loader, and a failure stays inside it.
 */
export function ScreenOutlet() {
  return (
    <ScreenErrorBoundary>
      <Suspense fallback={<PageLoader />}>
        <Outlet />
      </Suspense>
    </ScreenErrorBoundary>
  );
}
