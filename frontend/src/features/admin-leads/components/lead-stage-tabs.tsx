import { LEAD_STATUSES } from '@agency/contracts';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import type { ListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { LEADS_NAMESPACE } from '../leads-namespace';

/** The pipeline's stages as tabs (or all of them): the list's status filter. */
export function LeadStageTabs({ list }: { list: ListParams<'status'> }) {
  const { t } = useNamespace(LEADS_NAMESPACE);
  return (
    <Tabs
      value={list.filters.status ?? 'all'}
      onChange={(_event, next: string) =>
        list.setFilter('status', next === 'all' ? undefined : next)
      }
      aria-label={t('pipeline')}
      variant="scrollable"
      allowScrollButtonsMobile
      sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
    >
      <Tab value="all" label={t('all')} />
      {LEAD_STATUSES.map((status) => (
        <Tab key={status} value={status} label={t(`status.${status}`)} />
      ))}
    </Tabs>
  );
}
