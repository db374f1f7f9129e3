import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { useNamespace } from '../../lib/translations';
import { CAMPAIGNS_NAMESPACE } from './campaigns-namespace';
import { CampaignManager } from './components/campaign-manager';

/** /admin/campaigns: the Mail Manager. */
export function AdminCampaignsPage() {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  return (
    <RequirePermission permission="campaigns:read">
      <PageHeading title={t('title')} subtitle={t('subtitle')} />
      <CampaignManager />
    </RequirePermission>
  );
}
