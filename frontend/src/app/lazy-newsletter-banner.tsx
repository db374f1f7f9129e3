import Box from '@mui/material/Box';
import { Suspense } from 'react';
import { useLocation } from 'react-router-dom';
import { useInViewOnce } from '../lib/use-in-view-once';
import { useMounted } from '../lib/use-mounted';
import { lazyWithApi } from './lazy-with-api';

/** Keeps the banner's room until it is there, so the page does not jump. */
const placeholder = <Box sx={{ minHeight: 300 }} />;

// The banner brings formik, yup and the API client: loaded only where it is shown.
const NewsletterBanner = lazyWithApi(
  () => import('../features/newsletter').then((module) => module.NewsletterBanner),
  placeholder,
);

/**
 * The #newsletter banner, loaded and built as the visitor heads for it, like
 * the contact section. The anchor id is on this wrapper from the first
 * render, so a link to /#newsletter can scroll to it before the form arrives.
 * Prerendered pages show the placeholder: the form is interactive only.
 */
export function LazyNewsletterBanner() {
  const mounted = useMounted();
  const { ref, inView } = useInViewOnce<HTMLDivElement>({ rootMargin: '400px 0px' });
  return (
    <Box id="newsletter" ref={ref}>
      {mounted && inView ? (
        <Suspense fallback={placeholder}>
          <NewsletterBanner id="" />
        </Suspense>
      ) : (
        placeholder
      )}
    </Box>
  );
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
