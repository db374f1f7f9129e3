import { ContactSection } from '../features/contact';
import { AboutSection, HeroSection, PackagesSection } from '../features/home';
import { NewsletterBanner } from '../features/newsletter';

/** The home page stacks sections from several features, so it is composed here in app/. */
export function HomePage() {
  return (
    <>
      <HeroSection />
      <PackagesSection />
      <AboutSection />
      <ContactSection />
      <NewsletterBanner />
    </>
  );
}
