import { LEAD_SORT_FIELDS, type LeadDto, type LeadListQuery } from '@agency/contracts';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import { useCallback, useMemo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { AdminList } from '../../../components/admin/admin-list';
import { EmptyState } from '../../../components/admin/empty-state';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { RowActions } from '../../../components/admin/row-actions';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useLeadListQuery } from '../api/leads-api';
import { LEADS_NAMESPACE } from '../leads-namespace';
import { LeadCard } from './lead-card';
import { leadActions, leadColumns, leadDeleteAction } from './lead-columns';
import { LeadStageTabs } from './lead-stage-tabs';

export interface LeadsListProps {
  canWrite: boolean;
  onDelete: (lead: LeadDto) => void;
  addButton: ReactNode;
}

/** The pipeline: one tab per stage (or all), search, and the leads of that stage. */
export function LeadsList({ canWrite, onDelete, addButton }: LeadsListProps) {
  const { t } = useNamespace(LEADS_NAMESPACE);
  const format = useFormatters();
  const { search: addressQuery } = useLocation();
  const list = useListParams<'status'>({
    sortFields: LEAD_SORT_FIELDS,
    defaultSort: '-createdAt',
    filters: ['status'],
  });
  const query = useLeadListQuery(list.query as Partial<LeadListQuery>);
  const remove = useCallback(
    (lead: LeadDto) => leadDeleteAction(lead, t, canWrite, onDelete),
    [t, canWrite, onDelete],
  );
  const actions = useCallback(
    (lead: LeadDto) => leadActions(lead, t, addressQuery, remove(lead)),
    [t, addressQuery, remove],
  );
  // Columns rebuilt on every render would reset the grid: only their inputs renew them.
  const columns = useMemo(() => leadColumns(t, format, actions), [t, format, actions]);

  return (
    <>
      <LeadStageTabs list={list} />
      <ListToolbar list={list} />
      <AdminList
        label={t('tableLabel')}
        query={query}
        list={list}
        empty={
          <EmptyState
            icon={<TrendingUpIcon />}
            title={t('empty')}
            description={t('emptyHint')}
            action={canWrite ? addButton : undefined}
          />
        }
        columns={columns}
        renderCard={(lead) => (
          <LeadCard
            lead={lead}
            addressQuery={addressQuery}
            actions={canWrite ? <RowActions actions={[remove(lead)]} /> : undefined}
          />
        )}
      />
    </>
  );
}
