import {
  CLIENT_INDUSTRIES,
  CLIENT_SORT_FIELDS,
  CLIENT_STATUSES,
  type ClientDto,
  type ClientListQuery,
  type ClientStatus,
} from '@agency/contracts';
import BusinessIcon from '@mui/icons-material/Business';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useCallback, useMemo, type ReactNode } from 'react';
import { EmptyState } from '../../../components/admin/empty-state';
import { FilterSelect } from '../../../components/admin/filter-select';
import { StatusChip } from '../../../components/admin/status-chip';
import { AdminList } from '../../../components/admin/admin-list';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { RecordCard } from '../../../components/admin/record-card';
import {
  actionsColumn,
  deleteAction,
  editAction,
  RowActions,
} from '../../../components/admin/row-actions';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useClientListQuery } from '../api/clients-api';
import { CLIENTS_NAMESPACE } from '../clients-namespace';

const STATUS_COLORS: Record<ClientStatus, 'success' | 'default' | 'info'> = {
  active: 'success',
  inactive: 'default',
  potential: 'info',
};

export interface ClientsListProps {
  canWrite: boolean;
  onEdit: (client: ClientDto) => void;
  onDelete: (client: ClientDto) => void;
  /** The Add button, offered in the empty state too. */
  addButton: ReactNode;
}

/** The agency's clients: search, status and industry filters, table (cards on a phone). */
export function ClientsList({ canWrite, onEdit, onDelete, addButton }: ClientsListProps) {
  const { t } = useNamespace(CLIENTS_NAMESPACE);
  const format = useFormatters();
  const list = useListParams<'status' | 'industry'>({
    sortFields: CLIENT_SORT_FIELDS,
    defaultSort: '-createdAt',
    filters: ['status', 'industry'],
  });
  const query = useClientListQuery(list.query as Partial<ClientListQuery>);

  const budget = useCallback(
    (client: ClientDto) =>
      client.monthlyBudget === undefined ? t('noBudget') : format.money(client.monthlyBudget),
    [t, format],
  );
  const industry = useCallback(
    (client: ClientDto) => (client.industry ? t(`industries.${client.industry}`) : t('noIndustry')),
    [t],
  );
  const statusChip = useCallback(
    (client: ClientDto) => (
      <StatusChip label={t(`status.${client.status}`)} color={STATUS_COLORS[client.status]} />
    ),
    [t],
  );
  const actions = useCallback(
    (client: ClientDto) => (
      <RowActions
        actions={[
          editAction(t('edit', { company: client.companyName }), () => onEdit(client)),
          deleteAction(t('delete', { company: client.companyName }), () => onDelete(client)),
        ]}
      />
    ),
    [t, onEdit, onDelete],
  );

  const columns = useMemo<GridColDef<ClientDto>[]>(
    () => [
      { field: 'companyName', headerName: t('columns.company'), flex: 1.2, minWidth: 170 },
      {
        field: 'contactPerson',
        headerName: t('columns.contact'),
        flex: 1,
        minWidth: 150,
        sortable: false,
      },
      {
        field: 'email',
        headerName: t('columns.email'),
        flex: 1.3,
        minWidth: 190,
        sortable: false,
        renderCell: ({ row }) => <Link href={`mailto:${row.email}`}>{row.email}</Link>,
      },
      {
        field: 'industry',
        headerName: t('columns.industry'),
        width: 140,
        sortable: false,
        valueGetter: (_value, row) => industry(row),
      },
      {
        field: 'monthlyBudget',
        headerName: t('columns.budget'),
        width: 150,
        align: 'right',
        headerAlign: 'right',
        valueFormatter: (_value, row) => budget(row),
      },
      {
        field: 'status',
        headerName: t('columns.status'),
        width: 120,
        renderCell: ({ row }) => statusChip(row),
      },
      {
        field: 'createdAt',
        headerName: t('columns.added'),
        width: 130,
        valueFormatter: (value: string) => format.date(value),
      },
      ...(canWrite ? [actionsColumn(t('columns.actions'), actions)] : []),
    ],
    [t, format, canWrite, budget, industry, statusChip, actions],
  );

  const body = (
    <AdminList
      label={t('tableLabel')}
      query={query}
      list={list}
      empty={
        <EmptyState
          icon={<BusinessIcon />}
          title={t('empty')}
          description={t('emptyHint')}
          action={canWrite ? addButton : undefined}
        />
      }
      columns={columns}
      renderCard={(client) => (
        <RecordCard
          title={client.companyName}
          badge={statusChip(client)}
          actions={canWrite ? actions(client) : undefined}
        >
          <Typography variant="body2">{client.contactPerson}</Typography>
          <Typography variant="body2" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
            {client.email}
          </Typography>
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            {industry(client)} · {budget(client)}
          </Typography>
        </RecordCard>
      )}
    />
  );

  return (
    <>
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
      {body}
    </>
  );
}
