import Box from '@mui/material/Box';
import { Suspense } from 'react';
import { useMounted } from '../lib/use-mounted';
import { lazyWithApi } from './lazy-with-api';

const placeholder = <Box id="contact" component="section" sx={{ minHeight: 900 }} />;

// The form brings formik, yup and the API client: loaded only where the section is shown.
const ContactSection = lazyWithApi(
  () => import('../features/contact').then((module) => module.ContactSection),
  placeholder,
);

/**
 * The #contact section, loaded on demand. Its placeholder already carries the
 * anchor id, so "contact" links can scroll to it before the form has arrived.
 */
export function LazyContactSection() {
  // The form is interactive only: prerendered pages show its placeholder.
  const mounted = useMounted();
  if (!mounted) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <ContactSection />
    </Suspense>
  );
}
