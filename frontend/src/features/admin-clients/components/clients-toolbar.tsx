import { CLIENT_INDUSTRIES, CLIENT_STATUSES } from '@agency/contracts';
import { FilterSelect } from '../../../components/admin/filter-select';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import type { ListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { CLIENTS_NAMESPACE } from '../clients-namespace';

/** Above the clients: the search, then the status and industry filters. */
export function ClientsToolbar({ list }: { list: ListParams<'status' | 'industry'> }) {
  const { t } = useNamespace(CLIENTS_NAMESPACE);
  return (
    <ListToolbar list={list}>
      <FilterSelect
        label={t('statusFilter')}
        value={list.filters.status}
        onChange={(status) => list.setFilter('status', status)}
        allLabel={t('allStatuses')}
        options={CLIENT_STATUSES.map((status) => ({
          value: status,
          label: t(`status.${status}`),
        }))}
        minWidth={150}
      />
      <FilterSelect
        label={t('industryFilter')}
        value={list.filters.industry}
        onChange={(industry) => list.setFilter('industry', industry)}
        allLabel={t('allIndustries')}
        options={CLIENT_INDUSTRIES.map((name) => ({
          value: name,
          label: t(`industries.${name}`),
        }))}
        minWidth={170}
      />
    </ListToolbar>
  );
}
