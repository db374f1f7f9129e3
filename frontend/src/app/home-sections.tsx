import Box from '@mui/material/Box';
import { startTransition, useEffect, useState, type ComponentType } from 'react';
import {
  AboutSection,
  CaseStudiesSection,
  ClientsSection,
  FaqSection,
  ImpactSection,
  PackagesSection,
  ProcessSection,
  StatsBanner,
  SuccessStoriesSection,
  TestimonialsSection,
} from '../features/home/sections';
import { useHydrating } from '../lib/use-hydrating';
import { LazyContactSection } from './lazy-contact-section';
import { LazyNewsletterBanner } from './lazy-newsletter-banner';

/** Everything below the hero, in the spec's order (section 2). */
const SECTIONS: readonly ComponentType[] = [
  StatsBanner,
  PackagesSection,
  ProcessSection,
  ImpactSection,
  SuccessStoriesSection,
  CaseStudiesSection,
  AboutSection,
  TestimonialsSection,
  ClientsSection,
  FaqSection,
  LazyContactSection,
  LazyNewsletterBanner,
];

/**
 * Renders every section. Built in the browser (after a navigation), they
 * come one after the other, each in its own task, so building the long page
 * never blocks the browser (taps, scrolling) for long.
 */
export function HomeSections() {
  // Prerendered (or hydrated from that HTML), they are all there already.
  const hydrating = useHydrating();
  const [shown, setShown] = useState(() => (hydrating ? SECTIONS.length : 1));

  useEffect(() => {
    if (shown >= SECTIONS.length) return undefined;
    const timer = window.setTimeout(() => startTransition(() => setShown(shown + 1)), 0);
    return () => window.clearTimeout(timer);
  }, [shown]);

  return (
    // Every section is in the page for readers and search engines, but the
    // browser lays each out only as it nears the viewport: the long page costs
    // the first paint little. Until then a section counts as 900 px tall. The
    // first two, at the fold, are laid out at once.
    <Box
      sx={{
        '& > section:nth-of-type(n + 3)': {
          contentVisibility: 'auto',
          containIntrinsicSize: 'auto 900px',
        },
      }}
    >
      {SECTIONS.slice(0, shown).map((Section, index) => (
        <Section key={index} />
      ))}
    </Box>
  );
}
