import type { LeadDto, LeadStatus } from '@agency/contracts';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import type { GridColDef } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import type { Translate } from '../../../components/admin/admin-columns';
import {
  actionsColumn,
  deleteAction,
  RowActions,
  type RowAction,
} from '../../../components/admin/row-actions';
import { StatusChip } from '../../../components/admin/status-chip';
import { ADMIN_PATHS } from '../../../lib/admin-paths';
import type { Formatters } from '../../../lib/use-formatters';

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

/** The lead's estimated value, or that none is set. */
export function leadValue(lead: LeadDto, t: Translate, format: Formatters): string {
  return lead.estimatedValue === undefined ? t('noValue') : format.money(lead.estimatedValue);
}

/** The lead's stage; a new lead's stands out. */
export function leadStageChip(lead: LeadDto, t: Translate): ReactNode {
  return (
    <StatusChip
      label={t(`status.${lead.status}`)}
      color={STAGE_COLORS[lead.status]}
      highlighted={lead.status === 'new'}
    />
  );
}

/** The bin that asks to delete a lead, for a role that may only. */
export function leadDeleteAction(
  lead: LeadDto,
  t: Translate,
  canWrite: boolean,
  onDelete: (lead: LeadDto) => void,
): RowAction | false {
  return canWrite && deleteAction(t('delete', { name: lead.name }), () => onDelete(lead));
}

/** A lead's row buttons: open its page (keeping the list's address), then delete. */
export function leadActions(
  lead: LeadDto,
  t: Translate,
  addressQuery: string,
  remove: RowAction | false,
): ReactNode {
  return (
    <RowActions
      actions={[
        {
          label: t('open', { name: lead.name }),
          icon: <OpenInNewIcon fontSize="small" />,
          to: `${leadPath(lead)}${addressQuery}`,
        },
        remove,
      ]}
    />
  );
}

/** The pipeline table's columns. */
export function leadColumns(
  t: Translate,
  format: Formatters,
  actions: (lead: LeadDto) => ReactNode,
): GridColDef<LeadDto>[] {
  return [
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
      renderCell: ({ row }) => leadStageChip(row, t),
    },
    {
      field: 'estimatedValue',
      headerName: t('columns.value'),
      width: 150,
      align: 'right',
      headerAlign: 'right',
      valueFormatter: (_value, row) => leadValue(row, t, format),
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
  ];
}
