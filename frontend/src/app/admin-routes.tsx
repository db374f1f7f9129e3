import { lazy, Suspense, type ReactNode } from 'react';
import { useRoutes, type RouteObject } from 'react-router-dom';
import { PageLoader } from '../components/page-loader';
import { AdminIndexRedirect } from '../features/admin-account';
import { lazyWithApi } from './lazy-with-api';

/*
 * The admin area: this module is itself a lazy chunk (app/router.tsx), so
 * the public entry carries one import of it rather than the preload lists
 * of every section. Sign-in and the frame (which connects the API) are
 * chunks of their own; each section is another, fetched when it is first
 * opened. The sections check the role themselves (they know the permission
 * they need).
 */
const AdminLoginPage = lazyWithApi(() =>
  import('../features/admin-account/admin-login-page').then((module) => module.AdminLoginPage),
);
const ForgotPasswordPage = lazyWithApi(() =>
  import('../features/admin-account/forgot-password-page').then(
    (module) => module.ForgotPasswordPage,
  ),
);
const ResetPasswordPage = lazyWithApi(() =>
  import('../features/admin-account/reset-password-page').then(
    (module) => module.ResetPasswordPage,
  ),
);
const AdminLayout = lazyWithApi(() =>
  import('../features/admin-shell').then((module) => module.AdminLayout),
);
const section = <Name extends string>(
  load: () => Promise<Record<Name, React.ComponentType>>,
  name: Name,
) => lazy(() => load().then((module) => ({ default: module[name] })));

const AdminDashboardPage = section(() => import('./admin-dashboard-page'), 'AdminDashboardPage');
const AdminCampaignsPage = section(
  () => import('../features/admin-campaigns'),
  'AdminCampaignsPage',
);
const CampaignReportPage = section(
  () => import('../features/admin-campaigns'),
  'CampaignReportPage',
);
const AdminMediaPage = section(() => import('../features/admin-media'), 'AdminMediaPage');
const AdminAudiencePage = section(() => import('../features/admin-audience'), 'AdminAudiencePage');
const AdminPeoplePage = section(() => import('../features/admin-people'), 'AdminPeoplePage');
const PersonPage = section(() => import('../features/admin-people'), 'PersonPage');
const SegmentsPage = section(() => import('../features/admin-people'), 'SegmentsPage');
const AdminUsersPage = section(() => import('../features/admin-users'), 'AdminUsersPage');
const AdminContactsPage = section(() => import('../features/admin-contacts'), 'AdminContactsPage');
const AdminClientsPage = section(() => import('../features/admin-clients'), 'AdminClientsPage');
const AdminLeadsPage = section(() => import('../features/admin-leads'), 'AdminLeadsPage');
const AdminAnalyticsPage = section(
  () => import('../features/admin-dashboard/admin-analytics-page'),
  'AdminAnalyticsPage',
);
const AdminSettingsPage = section(
  () => import('../features/admin-account/admin-settings-page'),
  'AdminSettingsPage',
);
const AdminNotFound = section(() => import('../features/admin-shell'), 'AdminNotFound');

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<PageLoader />}>{children}</Suspense>;
}

/** Everything under /admin, each section at its own address. */
const adminRoutes: RouteObject[] = [
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
    path: 'forgot-password',
    element: (
      <Lazy>
        <ForgotPasswordPage />
      </Lazy>
    ),
  },
  {
    path: 'reset-password',
    element: (
      <Lazy>
        <ResetPasswordPage />
      </Lazy>
    ),
  },
  {
    // The frame holds the sections' Suspense boundary, below its header.
    element: (
      <Lazy>
        <AdminLayout />
      </Lazy>
    ),
    children: [
      { path: 'dashboard', element: <AdminDashboardPage /> },
      { path: 'campaigns', element: <AdminCampaignsPage /> },
      { path: 'campaigns/:id/report', element: <CampaignReportPage /> },
      { path: 'media', element: <AdminMediaPage /> },
      { path: 'audience/:tab?', element: <AdminAudiencePage /> },
      { path: 'people', element: <AdminPeoplePage /> },
      { path: 'people/segments', element: <SegmentsPage /> },
      { path: 'people/:email', element: <PersonPage /> },
      { path: 'users', element: <AdminUsersPage /> },
      { path: 'contacts/:contactId?', element: <AdminContactsPage /> },
      { path: 'clients', element: <AdminClientsPage /> },
      { path: 'leads/:leadId?', element: <AdminLeadsPage /> },
      { path: 'analytics', element: <AdminAnalyticsPage /> },
      { path: 'settings', element: <AdminSettingsPage /> },
      { path: '*', element: <AdminNotFound /> },
    ],
  },
];

/** The admin area's routes, below the `admin/*` route of app/router.tsx. */
export function AdminRoutes() {
  return useRoutes(adminRoutes);
}
