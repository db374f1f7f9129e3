import {
  startTransition,
  useEffect,
  useState,
  useSyncExternalStore,
  type ComponentType,
} from 'react';
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

const subscribeToNothing = () => () => {};

/**
 * True while the sections are rendered on the server or hydrated from its
 * HTML: then they are all there already, and must all be rendered at once.
 */
function useFromServerHtml(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => false,
    () => true,
  );
}

/**
 * Renders every section. Built in the browser (after a navigation), they
 * come one after the other, each in its own task, so building the long page
 * never blocks the browser (taps, scrolling) for long.
 */
export function HomeSections() {
  const fromServerHtml = useFromServerHtml();
  const [shown, setShown] = useState(() => (fromServerHtml ? SECTIONS.length : 1));

  useEffect(() => {
    if (shown >= SECTIONS.length) return undefined;
    const timer = window.setTimeout(() => startTransition(() => setShown(shown + 1)), 0);
    return () => window.clearTimeout(timer);
  }, [shown]);

  return (
    <>
      {SECTIONS.slice(0, shown).map((Section, index) => (
        <Section key={index} />
      ))}
    </>
  );
}
