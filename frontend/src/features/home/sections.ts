// Below-the-fold sections of the home page, in one chunk that app/ loads lazily.
export { AboutSection } from './components/about-section';
export { CaseStudiesSection } from './components/case-studies-section';
export { ClientsSection } from './components/clients-section';
export { FaqSection } from './components/faq-section';
export { ImpactSection } from './components/impact-section';
export { PackagesSection } from './components/packages-section';
export { ProcessSection } from './components/process-section';
export { StatsBanner } from './components/stats-banner';
export { SuccessStoriesSection } from './components/success-stories-section';
export { TestimonialsSection } from './components/testimonials-section';
