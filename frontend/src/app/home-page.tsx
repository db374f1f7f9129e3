import Box from '@mui/material/Box';
import { lazy, Suspense } from 'react';
import { HeroSection } from '../features/home';

// The hero paints with the first load; the dozen sections below it follow in their own chunk.
const HomeSections = lazy(() =>
  import('./home-sections').then((module) => ({ default: module.HomeSections })),
);

/** The home page stacks sections from several features, so it is composed here in app/. */
export function HomePage() {
  return (
    <>
      <HeroSection />
      {/* Holds the footer below the fold while the sections load, so nothing visible shifts. */}
      <Suspense fallback={<Box sx={{ minHeight: '100vh' }} />}>
        <HomeSections />
      </Suspense>
    </>
  );
}
