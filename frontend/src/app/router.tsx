import { Suspense, type ReactNode } from 'react';
import { useRoutes, type RouteObject } from 'react-router-dom';
import { PageLayout } from '../components/page-layout';
import { PageLoader } from '../components/page-loader';
import { AdminIndexRedirect } from '../features/admin';
import { HomePage } from './home-page';
import { lazyWithApi } from './lazy-with-api';
import { preloadableLazy } from '../lib/preloadable-lazy';
import { NotFoundPage } from './not-found-page';

// Every page but home is its own chunk: a visitor downloads the pages they open.
const ContactPage = lazyWithApi(() =>
  import('../features/contact').then((module) => module.ContactPage),
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
// Admin screens are split into their own chunks: visitors never download them.
const AdminLoginPage = lazyWithApi(() =>
  import('../features/admin/admin-login-page').then((module) => module.AdminLoginPage),
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
// The footer is lazy; its newsletter banner too, so neither grows the first load.
const FooterNewsletterBanner = preloadableLazy(() =>
  import('./lazy-newsletter-banner').then((module) => module.FooterNewsletterBanner),
);
const AdminDashboardPage = lazyWithApi(() =>
  import('../features/admin/admin-dashboard-page').then((module) => module.AdminDashboardPage),
);

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoader />}>{children}</Suspense>;
}

/** Every route of spec section 2; exported so tests can mount them in a memory router. */
export const appRoutes: RouteObject[] = [
  {
    // PageLayout holds the public pages' Suspense boundary, below the navigation bar.
    // The newsletter banner joins the footer through `footerSlot` (home shows it among its sections).
    element: (
      <PageLayout
        footerSlot={
          <Suspense fallback={null}>
            <FooterNewsletterBanner />
          </Suspense>
        }
      />
    ),
    children: [
      { index: true, element: <HomePage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'services', element: <ServicesRoutePage /> },
      // The slug is not used: every service shares one page (spec 2).
      { path: 'services/:slug', element: <ServicesRoutePage /> },
      { path: 'services-dedicated', element: <ServicesRoutePage /> },
      { path: 'portfolio', element: <PortfolioPage /> },
      { path: 'thank-you', element: <ThankYouPage /> },
      { path: 'newsletter/confirm', element: <NewsletterConfirmPage /> },
      { path: 'newsletter/unsubscribe', element: <NewsletterUnsubscribePage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  {
    path: 'admin',
    children: [
      { index: true, element: <AdminIndexRedirect /> },
      {
        path: 'login',
        element: (
          <Lazy>
            <AdminLoginPage />
          </Lazy>
        ),
      },
      {
        path: 'dashboard',
        element: (
          <Lazy>
            <AdminDashboardPage />
          </Lazy>
        ),
      },
    ],
  },
];

/**
 * The routes, for a BrowserRouter (main.tsx) or a MemoryRouter (tests). The
 * declarative router is used rather than a data router: nothing here needs
 * loaders or actions, and it keeps about 16 KB (gzipped) out of the first load.
 */
export function AppRoutes() {
  return useRoutes(appRoutes);
}
