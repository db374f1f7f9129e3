import { useRoutes, type RouteObject } from 'react-router-dom';
import { PageLayout } from '../components/page-layout';
import { adminRoutes } from './admin-routes';
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
/** Every route of spec section 2; exported so tests can mount them in a memory router. */
export const appRoutes: RouteObject[] = [
  {
    // PageLayout holds the public pages' Suspense boundary, below the navigation bar.
    // Its `footerSlot` prop is where the newsletter banner joins the footer.
    element: <PageLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'services', element: <ServicesRoutePage /> },
      // The slug is not used: every service shares one page (spec 2).
      { path: 'services/:slug', element: <ServicesRoutePage /> },
      { path: 'services-dedicated', element: <ServicesRoutePage /> },
      { path: 'portfolio', element: <PortfolioPage /> },
      { path: 'thank-you', element: <ThankYouPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
  // Admin screens are their own chunks (app/admin-routes.tsx): visitors never download them.
  adminRoutes,
];

/**
 * The routes, for a BrowserRouter (main.tsx) or a MemoryRouter (tests). The
 * declarative router is used rather than a data router: nothing here needs
 * loaders or actions, and it keeps about 16 KB (gzipped) out of the first load.
 */
export function AppRoutes() {
  return useRoutes(appRoutes);
}
