import Box from '@mui/material/Box';
import { Suspense } from 'react';
import { useLocation } from 'react-router-dom';
import { NewsletterBanner } from '../features/newsletter/newsletter-content';
import { useInViewOnce } from '../lib/use-in-view-once';
import { useMounted } from '../lib/use-mounted';
import { lazyWithApi } from './lazy-with-api';

/** Keeps the form's room until it is there, so the page does not jump. */
const placeholder = <Box sx={{ minHeight: 80 }} />;

// The form brings formik, yup and the API client: loaded only where it is shown.
const NewsletterForm = lazyWithApi(
  () => import('../features/newsletter').then((module) => module.NewsletterForm),
  placeholder,
);

/**
 * The newsletter's form, loaded and built as the visitor heads for it, like
 * the contact form. Prerendered pages show the placeholder: the form is
 * interactive only.
 */
function LazyNewsletterForm() {
  const mounted = useMounted();
  const { ref, inView } = useInViewOnce<HTMLDivElement>({ rootMargin: '400px 0px' });
  return (
    <Box ref={ref}>
      {mounted && inView ? (
        <Suspense fallback={placeholder}>
          <NewsletterForm />
        </Suspense>
      ) : (
        placeholder
      )}
    </Box>
  );
}

/** The #newsletter banner: its words prerendered, its form on demand. */
export function LazyNewsletterBanner() {
  return <NewsletterBanner form={<LazyNewsletterForm />} />;
}

/**
 * The footer's banner. The home page already closes with it (`SECTIONS`), so
 * there the footer leaves it out (one banner per page), and so do the pages a
 * newsletter mail links to, which are about a subscription already.
 */
export function FooterNewsletterBanner() {
  const { pathname } = useLocation();
  if (pathname === '/' || pathname.startsWith('/newsletter/')) return null;
  return (
    // A light card on the dark footer, so the banner keeps its own colours and contrast.
    <Box
      sx={{
        bgcolor: 'background.paper',
        color: 'text.primary',
        borderRadius: 2,
        overflow: 'hidden',
        mb: 5,
      }}
    >
      <LazyNewsletterBanner />
    </Box>
  );
}
