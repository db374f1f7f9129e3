import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import { useSearchParams } from 'react-router-dom';
import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { useNamespace } from '../../lib/translations';
import { CAMPAIGNS_NAMESPACE } from './campaigns-namespace';
import { CampaignManager } from './components/campaign-manager';
import { TemplateManager } from './components/template-manager';

const VIEWS = ['campaigns', 'templates'] as const;
type View = (typeof VIEWS)[number];

/** /admin/campaigns: the Mail Manager, its campaigns and their templates (`?view=templates`). */
export function AdminCampaignsPage() {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const [params, setParams] = useSearchParams();
  const view: View = params.get('view') === 'templates' ? 'templates' : 'campaigns';
  return (
    <RequirePermission permission="campaigns:read">
      <PageHeading title={t('title')} subtitle={t('subtitle')} />
      <Tabs
        value={view}
        onChange={(_event, next: View) => setParams(next === 'campaigns' ? {} : { view: next })}
        aria-label={t('views.label')}
        sx={{ mb: 2 }}
      >
        {VIEWS.map((item) => (
          <Tab key={item} value={item} label={t(`views.${item}`)} />
        ))}
      </Tabs>
      <Box>{view === 'templates' ? <TemplateManager /> : <CampaignManager />}</Box>
    </RequirePermission>
  );
}
