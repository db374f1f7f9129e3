import { ServicesPage } from '../features/services';
import { LazyContactSection } from './lazy-contact-section';

/** /services: the service cards, then the #contact section their buttons scroll to. */
export function ServicesRoutePage() {
  return (
    <>
      <ServicesPage />
      <LazyContactSection />
    </>
  );
}
