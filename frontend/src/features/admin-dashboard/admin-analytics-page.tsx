import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { useNamespace } from '../../lib/translations';
import { AnalyticsPanel } from './components/analytics-panel';
import { DASHBOARD_NAMESPACE } from './dashboard-namespace';

/** /admin/analytics. */
export function AdminAnalyticsPage() {
  const { t } = useNamespace(DASHBOARD_NAMESPACE);
  return (
    <RequirePermission permission="stats:read">
      <PageHeading title={t('analytics.title')} subtitle={t('analytics.subtitle')} />
      <AnalyticsPanel />
    </RequirePermission>
  );
}
