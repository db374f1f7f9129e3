import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { useAdminCan } from '../../lib/admin-session';
import { AUDIENCE_TABS, adminAudiencePath, type AudienceTab } from '../../lib/admin-paths';
import { useNamespace } from '../../lib/translations';
import { AUDIENCE_NAMESPACE } from './audience-namespace';
import { ImportPanel } from './components/import-panel';
import { ListsPanel } from './components/lists-panel';
import { SuppressionPanel } from './components/suppression-panel';

/**
 * /admin/audience: the mailing lists, the CSV import into one, and the
 * suppression list, each tab at its own address. Everyone signed in sees
 * the lists; managers and admins change them, import, and see the
 * suppression list.
 */
export function AdminAudiencePage() {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const { tab: rawTab } = useParams();
  const canImport = useAdminCan('lists:write');
  const canSuppress = useAdminCan('suppressions:read');
  const offered = AUDIENCE_TABS.filter(
    (tab) =>
      tab === 'lists' || (tab === 'imports' ? canImport : tab === 'suppression' && canSuppress),
  );
  const tab: AudienceTab = offered.find((name) => name === rawTab) ?? 'lists';

  return (
    <RequirePermission permission="lists:read">
      <PageHeading title={t('title')} subtitle={t('subtitle')} />
      {offered.length > 1 ? (
        <Tabs
          value={tab}
          aria-label={t('tabs.label')}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}
        >
          {offered.map((name) => (
            <Tab
              key={name}
              value={name}
              label={t(`tabs.${name}`)}
              component={RouterLink}
              to={adminAudiencePath(name)}
            />
          ))}
        </Tabs>
      ) : null}
      {tab === 'lists' ? <ListsPanel /> : null}
      {tab === 'imports' ? <ImportPanel /> : null}
      {tab === 'suppression' ? <SuppressionPanel /> : null}
    </RequirePermission>
  );
}
