import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import { Suspense, type ReactNode } from 'react';
import { preloadableLazy } from '../lib/preloadable-lazy';
import { NavigationBar } from './navigation-bar';
import { ScreenOutlet } from './screen-error-boundary';
import { ScrollToHash } from './scroll-to-hash';

export interface PageLayoutProps {
  /** Rendered at the top of the footer: the place for the newsletter banner. */
  footerSlot?: ReactNode;
}

// Below the fold on every page: it loads just after the page itself.
const Footer = preloadableLazy(() => import('./footer').then((module) => module.Footer));

/** The public pages' frame: fixed navigation bar, the page, the footer. */
export function PageLayout({ footerSlot }: PageLayoutProps) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <ScrollToHash />
      <NavigationBar />
      {/* Reserves the fixed bar's height so page content never starts underneath it. */}
      <Toolbar aria-hidden />
      <Box component="main" id="main-content" sx={{ flexGrow: 1 }}>
        {/* The bar and footer stay on screen while a page's chunk loads. */}
        <ScreenOutlet />
      </Box>
      <Suspense fallback={null}>
        <Footer slot={footerSlot} />
      </Suspense>
    </Box>
  );
}
