import Box from '@mui/material/Box';
import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router-dom';
import { HeroSection } from '../features/home';
import { useInViewOnce } from '../lib/use-in-view-once';
import { useMounted } from '../lib/use-mounted';

// The hero paints with the first load; the dozen sections below it follow in their own chunk.
const HomeSections = lazy(() =>
  import('./home-sections').then((module) => ({ default: module.HomeSections })),
);

/** The home page stacks sections from several features, so it is composed here in app/. */
export function HomePage() {
  const { hash } = useLocation();
  const mounted = useMounted();
  // The sections are built when the visitor heads for them: as soon as the page
  // below the hero shows (the hero fills the first screen), or an anchor (#about,
  // #contact...) points into them. The -1px keeps a placeholder that merely
  // touches the bottom edge from counting as shown.
  const { ref, inView } = useInViewOnce<HTMLDivElement>({ rootMargin: '0px 0px -1px 0px' });
  const showSections = mounted && (inView || hash !== '');
  // Holds the footer below the fold until then, so nothing visible shifts.
  const placeholder = <Box ref={ref} sx={{ minHeight: '100vh' }} />;
  return (
    <>
      <HeroSection />
      {showSections ? (
        <Suspense fallback={placeholder}>
          <HomeSections />
        </Suspense>
      ) : (
        placeholder
      )}
    </>
  );
}
