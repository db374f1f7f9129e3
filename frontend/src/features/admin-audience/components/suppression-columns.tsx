import type { SuppressionReason } from '@agency/contracts';
import type { GridColDef } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import type { Translate } from '../../../components/admin/admin-columns';
import { actionsColumn, deleteAction, RowActions } from '../../../components/admin/row-actions';
import { StatusChip } from '../../../components/admin/status-chip';
import type { Formatters } from '../../../lib/use-formatters';
import type { SuppressionRow } from '../api/audience-api';

const REASON_COLORS: Record<SuppressionReason, 'error' | 'warning' | 'default' | 'info'> = {
  'hard-bounce': 'error',
  'soft-bounce': 'warning',
  complaint: 'error',
  unsubscribe: 'default',
  staff: 'info',
};

/** What else is known of a suppression: its campaign, the server's words, who added it. */
export function suppressionDetail(row: SuppressionRow): string {
  return [row.campaign?.name, row.detail, row.by?.username].filter(Boolean).join(' · ');
}

export function suppressionReasonChip(row: SuppressionRow, t: Translate): ReactNode {
  return (
    <StatusChip label={t(`suppression.reasons.${row.reason}`)} color={REASON_COLORS[row.reason]} />
  );
}

/** The bin that asks to let an address be mailed again. */
export function suppressionActions(
  row: SuppressionRow,
  t: Translate,
  onRemove: (row: SuppressionRow) => void,
): ReactNode {
  return (
    <RowActions
      actions={[deleteAction(t('suppression.remove', { email: row.email }), () => onRemove(row))]}
    />
  );
}

/** The suppression list's columns; the actions column only for a role that may change it. */
export function suppressionColumns(
  t: Translate,
  format: Formatters,
  actions: ((row: SuppressionRow) => ReactNode) | undefined,
): GridColDef<SuppressionRow>[] {
  return [
    { field: 'email', headerName: t('suppression.columns.email'), flex: 1.2, minWidth: 200 },
    {
      field: 'reason',
      headerName: t('suppression.columns.reason'),
      width: 190,
      sortable: false,
      renderCell: ({ row }) => suppressionReasonChip(row, t),
    },
    {
      field: 'source',
      headerName: t('suppression.columns.source'),
      width: 150,
      sortable: false,
      valueGetter: (_value, row) => t(`suppression.sources.${row.source}`),
    },
    {
      field: 'detail',
      headerName: t('suppression.columns.detail'),
      flex: 1,
      minWidth: 180,
      sortable: false,
      valueGetter: (_value, row) => suppressionDetail(row),
    },
    {
      field: 'at',
      headerName: t('suppression.columns.at'),
      width: 130,
      valueFormatter: (value: string) => format.date(value),
    },
    ...(actions ? [actionsColumn(t('suppression.columns.actions'), actions)] : []),
  ];
}
