import Box from '@mui/material/Box';
import { Suspense, type Ref } from 'react';
import { useInViewOnce } from '../lib/use-in-view-once';
import { useMounted } from '../lib/use-mounted';
import { lazyWithApi } from './lazy-with-api';

/** Keeps the section's room and its anchor id until the form is there. */
function Placeholder({ placeholderRef }: { placeholderRef?: Ref<HTMLElement> }) {
  return <Box ref={placeholderRef} id="contact" component="section" sx={{ minHeight: 900 }} />;
}

// The form brings formik, yup and the API client: loaded only where the section is shown.
const ContactSection = lazyWithApi(
  () => import('../features/contact').then((module) => module.ContactSection),
  <Placeholder />,
);

/**
 * The #contact section, loaded and built as the visitor heads for it (scrolls
 * near it, or follows a "contact" link, which scrolls to the placeholder).
 * Prerendered pages show the placeholder: the form is interactive only.
 */
export function LazyContactSection() {
  const mounted = useMounted();
  const { ref, inView } = useInViewOnce<HTMLElement>({ rootMargin: '400px 0px' });
  if (!mounted || !inView) return <Placeholder placeholderRef={ref} />;
  return (
    <Suspense fallback={<Placeholder />}>
      <ContactSection />
    </Suspense>
  );
}
