import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { lazy, Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { PageLayout } from '../components/page-layout';
import { AdminIndexRedirect } from '../features/admin';
import { ContactPage } from '../features/contact';
import { PortfolioPage } from '../features/portfolio';
import { ServicesPage } from '../features/services';
import { ThankYouPage } from '../features/thank-you';
import { HomePage } from './home-page';
import { NotFoundPage } from './not-found-page';

// Admin screens are split into their own chunks: visitors never download them.
const AdminLoginPage = lazy(() =>
  import('../features/admin/admin-login-page').then((module) => ({
    default: module.AdminLoginPage,
  })),
);
// Visitors reach these only from a newsletter mail: kept out of the first load.
const NewsletterConfirmPage = lazy(() =>
  import('../features/newsletter/newsletter-confirm-page').then((module) => ({
    default: module.NewsletterConfirmPage,
  })),
);
const NewsletterUnsubscribePage = lazy(() =>
  import('../features/newsletter/newsletter-unsubscribe-page').then((module) => ({
    default: module.NewsletterUnsubscribePage,
  })),
);
const AdminDashboardPage = lazy(() =>
  import('../features/admin/admin-dashboard-page').then((module) => ({
    default: module.AdminDashboardPage,
  })),
);

function PageLoader() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 16 }}>
      <CircularProgress aria-label={t('common.loading')} />
    </Box>
  );
}

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoader />}>{children}</Suspense>;
}

/** Every route of spec section 2; exported so tests can mount them in a memory router. */
export const appRoutes: RouteObject[] = [
  {
    element: <PageLayout />,
    children: [
      { index: true, element: <HomePage /> },
      { path: 'contact', element: <ContactPage /> },
      { path: 'services', element: <ServicesPage /> },
      // The slug is not used: every service shares one page (spec 2).
      { path: 'services/:slug', element: <ServicesPage /> },
      { path: 'services-dedicated', element: <ServicesPage /> },
      { path: 'portfolio', element: <PortfolioPage /> },
      { path: 'thank-you', element: <ThankYouPage /> },
      {
        path: 'newsletter/confirm',
        element: (
          <Lazy>
            <NewsletterConfirmPage />
          </Lazy>
        ),
      },
      {
        path: 'newsletter/unsubscribe',
        element: (
          <Lazy>
            <NewsletterUnsubscribePage />
          </Lazy>
        ),
      },
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

export function createAppRouter() {
  return createBrowserRouter(appRoutes);
}
