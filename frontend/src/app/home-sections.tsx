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

/** Everything below the hero, in the spec's order (section 2). */
export function HomeSections() {
  return (
    <>
      <StatsBanner />
      <PackagesSection />
      <ProcessSection />
      <ImpactSection />
      <SuccessStoriesSection />
      <CaseStudiesSection />
      <AboutSection />
      <TestimonialsSection />
      <ClientsSection />
      <FaqSection />
      <LazyContactSection />
      {/* The newsletter banner (features/newsletter) goes here, after the contact section (spec 2). */}
    </>
  );
}
