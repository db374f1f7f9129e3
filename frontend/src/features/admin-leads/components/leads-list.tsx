import {
  LEAD_SORT_FIELDS,
  LEAD_STATUSES,
  type LeadDto,
  type LeadListQuery,
  type LeadStatus,
} from '@agency/contracts';
import DeleteIcon from '@mui/icons-material/Delete';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useMemo, type ReactNode } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { EmptyState } from '../../../components/admin/empty-state';
import { SearchField } from '../../../components/admin/search-field';
import { StatusChip } from '../../../components/admin/status-chip';
import { AdminList } from '../../../components/admin/admin-list';
import { actionsColumn, RowActions } from '../../../components/admin/row-actions';
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
  const { data, isLoading, isFetching, isError, refetch } = useLeadListQuery(
    list.query as Partial<LeadListQuery>,
  );

  const value = (lead: LeadDto) =>
    lead.estimatedValue === undefined ? t('noValue') : format.money(lead.estimatedValue);
  const stage = (lead: LeadDto) => (
    <StatusChip
      label={t(`status.${lead.status}`)}
      color={STAGE_COLORS[lead.status]}
      highlighted={lead.status === 'new'}
    />
  );

  const remove = (lead: LeadDto) =>
    canWrite && {
      label: t('delete', { name: lead.name }),
      icon: <DeleteIcon fontSize="small" />,
      onClick: () => onDelete(lead),
    };
  const actions = (lead: LeadDto) => (
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
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the helpers read only these
    [t, format, canWrite, onDelete, addressQuery],
  );

  const stageFilter = list.filters.status ?? 'all';
  const body = (
    <AdminList
      label={t('tableLabel')}
      data={data}
      isLoading={isLoading}
      isFetching={isFetching}
      isError={isError}
      onRetry={() => void refetch()}
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
        <Card variant="outlined">
          <CardActionArea component={RouterLink} to={`${leadPath(lead)}${addressQuery}`}>
            <CardContent>
              <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1 }}>
                <Typography sx={{ fontWeight: 700 }}>{lead.name}</Typography>
                {stage(lead)}
              </Stack>
              {lead.company ? <Typography variant="body2">{lead.company}</Typography> : null}
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {value(lead)} · {lead.assignee?.username ?? t('unassigned')}
              </Typography>
            </CardContent>
          </CardActionArea>
          {/* Beside the card's link, not inside it: a button may not sit in a link. */}
          {canWrite ? (
            <CardActions sx={{ justifyContent: 'flex-end' }}>
              <RowActions actions={[remove(lead)]} />
            </CardActions>
          ) : null}
        </Card>
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
      <Stack direction="row" sx={{ mb: 2 }}>
        <SearchField value={list.search} onSearch={list.setSearch} />
      </Stack>
      {body}
    </>
  );
}
