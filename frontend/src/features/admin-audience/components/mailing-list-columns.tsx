import type { MailingListDto } from '@agency/contracts';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import type { GridColDef } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import type { Translate } from '../../../components/admin/admin-columns';
import {
  actionsColumn,
  deleteAction,
  editAction,
  RowActions,
} from '../../../components/admin/row-actions';
import { adminAudiencePath } from '../../../lib/admin-paths';
import type { Formatters } from '../../../lib/use-formatters';
import { ListDeletionProgress } from './list-deletion-progress';

/** A list's buttons: import into it, edit, delete; none while it is being deleted. */
export function mailingListActions(
  row: MailingListDto,
  t: Translate,
  onEdit: (row: MailingListDto) => void,
  onDelete: (row: MailingListDto) => void,
): ReactNode {
  return row.state === 'deleting' ? null : (
    <RowActions
      actions={[
        {
          label: t('lists.import', { name: row.name }),
          icon: <UploadFileIcon fontSize="small" />,
          to: `${adminAudiencePath('imports')}?list=${encodeURIComponent(row.id)}`,
        },
        editAction(t('lists.edit', { name: row.name }), () => onEdit(row)),
        deleteAction(t('lists.delete', { name: row.name }), () => onDelete(row)),
      ]}
    />
  );
}

/** The mailing lists table's columns; a list being deleted shows its progress for its members. */
export function mailingListColumns(
  t: Translate,
  format: Formatters,
  actions: ((row: MailingListDto) => ReactNode) | undefined,
): GridColDef<MailingListDto>[] {
  return [
    { field: 'name', headerName: t('lists.columns.name'), flex: 1, minWidth: 160 },
    {
      field: 'description',
      headerName: t('lists.columns.description'),
      flex: 1.5,
      minWidth: 200,
      sortable: false,
    },
    {
      field: 'memberCount',
      headerName: t('lists.columns.members'),
      width: 120,
      align: 'right',
      headerAlign: 'right',
      valueFormatter: (value: number) => format.number(value),
      renderCell: ({ row, formattedValue }) =>
        row.deletion ? (
          <ListDeletionProgress name={row.name} deletion={row.deletion} />
        ) : (
          formattedValue
        ),
    },
    {
      field: 'createdAt',
      headerName: t('lists.columns.created'),
      width: 130,
      valueFormatter: (value: string) => format.date(value),
    },
    ...(actions ? [actionsColumn(t('lists.columns.actions'), actions, 130)] : []),
  ];
}
