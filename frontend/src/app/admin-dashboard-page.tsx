import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { lazy, Suspense, type ComponentType } from 'react';
import { useSearchParams } from 'react-router-dom';
import { PageHeading } from '../components/admin/page-heading';
import { RequirePermission } from '../components/admin/require-permission';
import { useIsMobile } from '../components/admin/use-is-mobile';
import { PageLoader } from '../components/page-loader';
import { DemoModeNote } from '../features/admin-account/components/demo-mode-note';
import { DASHBOARD_NAMESPACE, OverviewPanel, StatCards } from '../features/admin-dashboard';
import { useNamespace } from '../lib/translations';

// The other tabs are whole sections' lists and charts: fetched when first opened.
const ContactsTab = lazy(() =>
  import('../features/admin-contacts').then((module) => ({ default: module.ContactsList })),
);
const CampaignsTab = lazy(() =>
  import('../features/admin-campaigns').then((module) => ({ default: module.CampaignManager })),
);
const AnalyticsTab = lazy(() =>
  import('../features/admin-dashboard/components/analytics-panel').then((module) => ({
    default: module.AnalyticsPanel,
  })),
);

const TABS: Record<string, ComponentType> = {
  overview: OverviewPanel,
  contacts: ContactsTab,
  campaigns: CampaignsTab,
  analytics: AnalyticsTab,
};
type TabName = keyof typeof TABS;

/**
 * /admin/dashboard: the four figures, then the tabs Overview, Contacts,
 * Campaigns and Analytics (desktop only: a phone shows the overview). The
 * tab is in the address (`?tab=campaigns`), so reload and back keep it.
 */
export function AdminDashboardPage() {
  const { t } = useNamespace(DASHBOARD_NAMESPACE);
  const mobile = useIsMobile();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') ?? 'overview';
  const tab: TabName = !mobile && requested in TABS ? requested : 'overview';
  const Panel = TABS[tab] ?? OverviewPanel;

  return (
    <RequirePermission permission="stats:read">
      <PageHeading title={t('title')} subtitle={t('subtitle')} />
      <DemoModeNote />
      <StatCards />
      {mobile ? null : (
        <Tabs
          value={tab}
          onChange={(_event, next: string) => setParams(next === 'overview' ? {} : { tab: next })}
          aria-label={t('tabs.label')}
          sx={{ mt: 3, mb: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          {Object.keys(TABS).map((name) => (
            <Tab
              key={name}
              value={name}
              label={t(`tabs.${name}`)}
              id={`dashboard-tab-${name}`}
              aria-controls="dashboard-tab-panel"
            />
          ))}
        </Tabs>
      )}
      <Box
        id="dashboard-tab-panel"
        role={mobile ? undefined : 'tabpanel'}
        aria-labelledby={mobile ? undefined : `dashboard-tab-${tab}`}
        sx={{ mt: mobile ? 3 : 0 }}
      >
        <Suspense fallback={<PageLoader />}>
          <Panel />
        </Suspense>
      </Box>
    </RequirePermission>
  );
}
