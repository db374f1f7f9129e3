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
  // The sections are built when the visitor heads for them: scrolling towards them,
  // or an anchor (#about, #contact...) that points into them. A visitor who only
  // reads the hero never pays for them.
  const { ref, inView } = useInViewOnce<HTMLDivElement>({ rootMargin: '800px 0px' });
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
