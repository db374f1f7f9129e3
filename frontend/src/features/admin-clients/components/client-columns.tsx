import type { ClientDto, ClientStatus } from '@agency/contracts';
import Link from '@mui/material/Link';
import type { GridColDef } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import type { Translate } from '../../../components/admin/admin-columns';
import { StatusChip } from '../../../components/admin/status-chip';
import {
  actionsColumn,
  deleteAction,
  editAction,
  RowActions,
} from '../../../components/admin/row-actions';
import type { Formatters } from '../../../lib/use-formatters';

const STATUS_COLORS: Record<ClientStatus, 'success' | 'default' | 'info'> = {
  active: 'success',
  inactive: 'default',
  potential: 'info',
};

/** The client's monthly budget, or that none is set. */
export function clientBudget(client: ClientDto, t: Translate, format: Formatters): string {
  return client.monthlyBudget === undefined ? t('noBudget') : format.money(client.monthlyBudget);
}

/** The client's industry by name, or that none is set. */
export function clientIndustry(client: ClientDto, t: Translate): string {
  return client.industry ? t(`industries.${client.industry}`) : t('noIndustry');
}

export function clientStatusChip(client: ClientDto, t: Translate): ReactNode {
  return <StatusChip label={t(`status.${client.status}`)} color={STATUS_COLORS[client.status]} />;
}

/** A client's edit and delete buttons, in its table row and on its card. */
export function clientActions(
  client: ClientDto,
  t: Translate,
  onEdit: (client: ClientDto) => void,
  onDelete: (client: ClientDto) => void,
): ReactNode {
  return (
    <RowActions
      actions={[
        editAction(t('edit', { company: client.companyName }), () => onEdit(client)),
        deleteAction(t('delete', { company: client.companyName }), () => onDelete(client)),
      ]}
    />
  );
}

/** The clients table's columns; the actions column only for a role that may change clients. */
export function clientColumns(
  t: Translate,
  format: Formatters,
  actions: ((client: ClientDto) => ReactNode) | undefined,
): GridColDef<ClientDto>[] {
  return [
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
      valueGetter: (_value, row) => clientIndustry(row, t),
    },
    {
      field: 'monthlyBudget',
      headerName: t('columns.budget'),
      width: 150,
      align: 'right',
      headerAlign: 'right',
      valueFormatter: (_value, row) => clientBudget(row, t, format),
    },
    {
      field: 'status',
      headerName: t('columns.status'),
      width: 120,
      renderCell: ({ row }) => clientStatusChip(row, t),
    },
    {
      field: 'createdAt',
      headerName: t('columns.added'),
      width: 130,
      valueFormatter: (value: string) => format.date(value),
    },
    ...(actions ? [actionsColumn(t('columns.actions'), actions)] : []),
  ];
}
