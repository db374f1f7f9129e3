import {
  LEAD_SORT_FIELDS,
  LEAD_STATUSES,
  type LeadDto,
  type LeadListQuery,
  type LeadStatus,
} from '@agency/contracts';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useCallback, useMemo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { EmptyState } from '../../../components/admin/empty-state';
import { StatusChip } from '../../../components/admin/status-chip';
import { AdminList } from '../../../components/admin/admin-list';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { RecordCard } from '../../../components/admin/record-card';
import { actionsColumn, deleteAction, RowActions } from '../../../components/admin/row-actions';
import { ADMIN_PATHS } from '../../../lib/admin-paths';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useLeadListQuery } from '../api/leads-api';
import { LEADS_NAMESPACE } from '../leads-namespace';

const STAGE_COLORS: Record<
  LeadStatus,
  'default' | 'info' | 'primary' | 'warning' | 'success' | 'error'
> = {
  new: 'primary',
  contacted: 'info',
  qualified: 'info',
  proposal: 'warning',
  won: 'success',
  lost: 'error',
};

export function leadPath(lead: Pick<LeadDto, 'id'>): string {
  return `${ADMIN_PATHS.leads}/${encodeURIComponent(lead.id)}`;
}

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

  const value = useCallback(
    (lead: LeadDto) =>
      lead.estimatedValue === undefined ? t('noValue') : format.money(lead.estimatedValue),
    [t, format],
  );
  const stage = useCallback(
    (lead: LeadDto) => (
      <StatusChip
        label={t(`status.${lead.status}`)}
        color={STAGE_COLORS[lead.status]}
        highlighted={lead.status === 'new'}
      />
    ),
    [t],
  );

  const remove = useCallback(
    (lead: LeadDto) =>
      canWrite && deleteAction(t('delete', { name: lead.name }), () => onDelete(lead)),
    [t, canWrite, onDelete],
  );
  const actions = useCallback(
    (lead: LeadDto) => (
      <RowActions
        actions={[
          {
            label: t('open', { name: lead.name }),
            icon: <OpenInNewIcon fontSize="small" />,
            to: `${leadPath(lead)}${addressQuery}`,
          },
          remove(lead),
        ]}
      />
    ),
    [t, addressQuery, remove],
  );

  const columns = useMemo<GridColDef<LeadDto>[]>(
    () => [
      { field: 'name', headerName: t('columns.name'), flex: 1.1, minWidth: 150 },
      {
        field: 'company',
        headerName: t('columns.company'),
        flex: 1,
        minWidth: 140,
        sortable: false,
      },
      { field: 'email', headerName: t('columns.email'), flex: 1.2, minWidth: 180, sortable: false },
      {
        field: 'status',
        headerName: t('columns.status'),
        width: 130,
        renderCell: ({ row }) => stage(row),
      },
      {
        field: 'estimatedValue',
        headerName: t('columns.value'),
        width: 150,
        align: 'right',
        headerAlign: 'right',
        valueFormatter: (_value, row) => value(row),
      },
      {
        field: 'source',
        headerName: t('columns.source'),
        width: 150,
        sortable: false,
        valueGetter: (_value, row) => t(`source.${row.source}`),
      },
      {
        field: 'assignee',
        headerName: t('columns.assignee'),
        width: 140,
        sortable: false,
        valueGetter: (_value, row) => row.assignee?.username ?? t('unassigned'),
      },
      {
        field: 'createdAt',
        headerName: t('columns.added'),
        width: 130,
        valueFormatter: (date: string) => format.date(date),
      },
      actionsColumn(t('columns.actions'), actions),
    ],
    [t, format, value, stage, actions],
  );

  const stageFilter = list.filters.status ?? 'all';
  const body = (
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
        <RecordCard
          title={lead.name}
          badge={stage(lead)}
          to={`${leadPath(lead)}${addressQuery}`}
          actions={canWrite ? <RowActions actions={[remove(lead)]} /> : undefined}
        >
          {lead.company ? <Typography variant="body2">{lead.company}</Typography> : null}
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {value(lead)} · {lead.assignee?.username ?? t('unassigned')}
          </Typography>
        </RecordCard>
      )}
    />
  );

  return (
    <>
      <Tabs
        value={stageFilter}
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
      <ListToolbar list={list} />
      {body}
    </>
  );
}
