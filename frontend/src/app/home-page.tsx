import Box from '@mui/material/Box';
import { useLocation } from 'react-router-dom';
import { HeroSection } from '../features/home';
import { lazyOnView } from '../lib/preloadable-lazy';

// The hero paints with the first load; the dozen sections below it are in the
// prerendered page, and their code follows in its own chunk as the visitor
// heads for them. The -1px keeps a place that merely touches the bottom edge
// from counting as shown.
const HomeSections = lazyOnView(
  () => import('./home-sections').then((module) => module.HomeSections),
  // Holds the footer below the fold until they are built, so nothing visible shifts.
  { rootMargin: '0px 0px -1px 0px', fallback: <Box sx={{ minHeight: '100vh' }} /> },
);

/** The home page stacks sections from several features, so it is composed here in app/. */
export function HomePage() {
  const { hash } = useLocation();
  // An anchor (#about, #contact...) points into the sections: they are needed at once.
  return (
    <>
      <HeroSection />
      <HomeSections eager={hash !== ''} />
    </>
  );
}
