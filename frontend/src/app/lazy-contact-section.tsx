import Box from '@mui/material/Box';
import { Suspense } from 'react';
import { useInViewOnce } from '../lib/use-in-view-once';
import { useMounted } from '../lib/use-mounted';
import { lazyWithApi } from './lazy-with-api';

/** Keeps the section's room until the form is there. */
const placeholder = <Box sx={{ minHeight: 900 }} />;

// The form brings formik, yup and the API client: loaded only where the section is shown.
const ContactSection = lazyWithApi(
  () => import('../features/contact').then((module) => module.ContactSection),
  placeholder,
);

/**
 * The #contact section, loaded and built as the visitor heads for it (scrolls
 * near it, or follows a "contact" link, which scrolls to it). The anchor id is
 * on this wrapper from the first render, so links can scroll to it before the
 * form has arrived. Prerendered pages show the placeholder: the form is
 * interactive only.
 */
export function LazyContactSection() {
  const mounted = useMounted();
  const { ref, inView } = useInViewOnce<HTMLDivElement>({ rootMargin: '400px 0px' });
  return (
    <Box id="contact" ref={ref}>
      {mounted && inView ? (
        <Suspense fallback={placeholder}>
          <ContactSection id="" />
        </Suspense>
      ) : (
        placeholder
      )}
    </Box>
  );
}
