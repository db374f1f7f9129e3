import { lazy, Suspense } from 'react';
import { useHref, useRoutes, type RouteObject } from 'react-router-dom';
import { PageLayout } from '../components/page-layout';
import { PageLoader } from '../components/page-loader';
import { HomePage } from './home-page';
import { lazyWithApi } from './lazy-with-api';
import { preloadableLazy } from '../lib/preloadable-lazy';
import { NotFoundPage } from './not-found-page';
import { PageHeadSync } from './seo/page-head-sync';

// Every page but home is its own chunk: a visitor downloads the pages they open.
const ContactPage = preloadableLazy(() =>
  import('./lazy-contact-section').then((module) => module.ContactRoutePage),
);
const ServicesRoutePage = preloadableLazy(() =>
  import('./services-route-page').then((module) => module.ServicesRoutePage),
);
const PortfolioPage = preloadableLazy(() =>
  import('../features/portfolio').then((module) => module.PortfolioPage),
);
const ThankYouPage = preloadableLazy(() =>
  import('../features/thank-you').then((module) => module.ThankYouPage),
);
const PrivacyPage = preloadableLazy(() =>
  import('../features/privacy').then((module) => module.PrivacyPage),
);
// The whole admin area is one chunk (its sections are further chunks): visitors never download it.
const AdminRoutes = lazy(() =>
  import('./admin-routes').then((module) => ({ default: module.AdminRoutes })),
);
// Visitors reach these only from a newsletter mail: kept out of the first load.
const NewsletterConfirmPage = lazyWithApi(() =>
  import('../features/newsletter/newsletter-confirm-page').then(
    (module) => module.NewsletterConfirmPage,
  ),
);
const NewsletterUnsubscribePage = lazyWithApi(() =>
  import('../features/newsletter/newsletter-unsubscribe-page').then(
    (module) => module.NewsletterUnsubscribePage,
  ),
);
const NewsletterPreferencesPage = lazyWithApi(() =>
  import('../features/newsletter/newsletter-preferences-page').then(
    (module) => module.NewsletterPreferencesPage,
  ),
);
const NewsletterPrivacyDownloadPage = lazyWithApi(() =>
  import('../features/newsletter/newsletter-privacy-link-pages').then(
    (module) => module.NewsletterPrivacyDownloadPage,
  ),
);
const NewsletterPrivacyErasurePage = lazyWithApi(() =>
  import('../features/newsletter/newsletter-privacy-link-pages').then(
    (module) => module.NewsletterPrivacyErasurePage,
  ),
);
// The footer is lazy; its newsletter banner too, so neither grows the first load.
const FooterNewsletterBanner = preloadableLazy(() =>
  import('./lazy-newsletter-banner').then((module) => module.FooterNewsletterBanner),
);

/** The public site's pages: at the root in English, and below `/fr/` and `/ar/`. */
const publicRoutes: RouteObject[] = [
  {
    // PageLayout holds the public pages' Suspense boundary, below the navigation bar.
    // The newsletter banner joins the footer through `footerSlot` (home shows it among its sections).
    element: (
      <>
        <PageHeadSync />
        <PageLayout
          footerSlot={
            <Suspense fallback={null}>
              <FooterNewsletterBanner />
            </Suspense>
          }
        />
      </>
    ),
    children: [
      { index: true, element: <HomePage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'services', element: <ServicesRoutePage /> },
      // The slug is not used: every service shares one page.
      { path: 'services/:slug', element: <ServicesRoutePage /> },
      { path: 'services-dedicated', element: <ServicesRoutePage /> },
      { path: 'portfolio', element: <PortfolioPage /> },
      { path: 'thank-you', element: <ThankYouPage /> },
      { path: 'privacy', element: <PrivacyPage /> },
      { path: 'newsletter/confirm', element: <NewsletterConfirmPage /> },
      { path: 'newsletter/unsubscribe', element: <NewsletterUnsubscribePage /> },
      { path: 'newsletter/preferences', element: <NewsletterPreferencesPage /> },
      { path: 'newsletter/privacy/download', element: <NewsletterPrivacyDownloadPage /> },
      { path: 'newsletter/privacy/erase', element: <NewsletterPrivacyErasurePage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/** Every route of spec section 2; exported so tests can mount them in a memory router. */
export const appRoutes: RouteObject[] = [
  ...publicRoutes,
  {
    path: 'admin/*',
    element: (
      <Suspense fallback={<PageLoader />}>
        <AdminRoutes />
      </Suspense>
    ),
  },
];

/**
 * The routes, for a BrowserRouter (main.tsx) or a MemoryRouter (tests). The
 * declarative router is used rather than a data router: nothing here needs
 * loaders or actions, and it keeps about 16 KB (gzipped) out of the first load.
 */
export function AppRoutes() {
  // Below a language's prefix (the router's basename) there is only the public
  // site: the admin area lives at /admin alone.
  const localized = useHref('/') !== '/';
  return useRoutes(localized ? publicRoutes : appRoutes);
}
