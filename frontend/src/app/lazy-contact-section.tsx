import Box from '@mui/material/Box';
import { Suspense } from 'react';
import { ContactPage, ContactSection } from '../features/contact/contact-content';
import { useInViewOnce } from '../lib/use-in-view-once';
import { useMounted } from '../lib/use-mounted';
import { lazyWithApi } from './lazy-with-api';

/** Keeps the form's room until it is there. */
const placeholder = <Box sx={{ minHeight: 640 }} />;

// The form brings formik, yup and the API client: loaded only where it is shown.
const ContactForm = lazyWithApi(
  () => import('../features/contact').then((module) => module.ContactForm),
  placeholder,
);

/**
 * The enquiry form, loaded and built as the visitor heads for it (scrolls
 * near it, or follows a "contact" link, which scrolls to it). Prerendered
 * pages show the placeholder: the form is interactive only, and a form sent
 * before its script has run would go nowhere.
 */
function LazyContactForm() {
  const mounted = useMounted();
  const { ref, inView } = useInViewOnce<HTMLDivElement>({ rootMargin: '400px 0px' });
  return (
    <Box ref={ref}>
      {mounted && inView ? (
        <Suspense fallback={placeholder}>
          <ContactForm />
        </Suspense>
      ) : (
        placeholder
      )}
    </Box>
  );
}

/** The #contact section: its words and the contact details prerendered, the form on demand. */
export function LazyContactSection() {
  return <ContactSection form={<LazyContactForm />} />;
}

/** /contact. */
export function ContactRoutePage() {
  return <ContactPage form={<LazyContactForm />} />;
}
