import Box from '@mui/material/Box';
import Toolbar from '@mui/material/Toolbar';
import { Outlet } from 'react-router-dom';
import { Footer } from './footer';
import { NavigationBar } from './navigation-bar';
import { ScrollToHash } from './scroll-to-hash';

/** The public pages' frame: fixed navigation bar, the page, the footer. */
export function PageLayout() {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', minHeight: '100vh' }}>
      <ScrollToHash />
      <NavigationBar />
      {/* Reserves the fixed bar's height so page content never starts underneath it. */}
      <Toolbar aria-hidden />
      <Box component="main" id="main-content" sx={{ flexGrow: 1 }}>
        <Outlet />
      </Box>
      <Footer />
    </Box>
  );
}
