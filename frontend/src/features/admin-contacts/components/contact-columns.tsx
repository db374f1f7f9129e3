import type { ContactDto } from '@agency/contracts';
import VisibilityIcon from '@mui/icons-material/Visibility';
import type { GridColDef } from '@mui/x-data-grid';
import type { Translate } from '../../../components/admin/admin-columns';
import { ContactStatusChip } from '../../../components/admin/contact-status-chip';
import { actionsColumn, deleteAction, RowActions } from '../../../components/admin/row-actions';
import { StatusChip } from '../../../components/admin/status-chip';
import type { Formatters } from '../../../lib/use-formatters';

const MAIL_STATE_COLORS = { pending: 'warning', sent: 'success', failed: 'error' } as const;

export interface ContactColumnsOptions {
  /** The contacts namespace's, the admin's common one's and the shell's translations. */
  t: Translate;
  tCommon: Translate;
  tShell: Translate;
  format: Formatters;
  /** Whether the role may delete enquiries: the bin, and room for it. */
  canWrite: boolean;
  onView: (contact: ContactDto) => void;
  onDelete: (contact: ContactDto) => void;
}

function contactActionsColumn({
  t,
  canWrite,
  onView,
  onDelete,
}: ContactColumnsOptions): GridColDef<ContactDto> {
  return actionsColumn<ContactDto>(
    t('columns.actions'),
    (row) => (
      <RowActions
        actions={[
          {
            label: t('view', { name: `${row.firstName} ${row.lastName}` }),
            icon: <VisibilityIcon fontSize="small" />,
            onClick: () => onView(row),
          },
          canWrite &&
            deleteAction(t('delete', { name: `${row.firstName} ${row.lastName}` }), () =>
              onDelete(row),
            ),
        ]}
      />
    ),
    canWrite ? 110 : 80,
  );
}

/** The enquiries table's columns, each sortable by the API but the service and the mail. */
export function contactColumns(options: ContactColumnsOptions): GridColDef<ContactDto>[] {
  const { t, tCommon, tShell, format } = options;
  return [
    {
      field: 'lastName',
      headerName: t('columns.name'),
      flex: 1.2,
      minWidth: 160,
      valueGetter: (_value, row) => `${row.firstName} ${row.lastName}`,
    },
    { field: 'email', headerName: t('columns.email'), flex: 1.4, minWidth: 180 },
    {
      field: 'service',
      headerName: t('columns.service'),
      flex: 1,
      minWidth: 130,
      sortable: false,
      valueGetter: (_value, row) => tShell(`serviceNames.${row.service}`),
    },
    {
      field: 'status',
      headerName: t('columns.status'),
      width: 115,
      renderCell: ({ row }) => <ContactStatusChip status={row.status} />,
    },
    {
      field: 'mailState',
      headerName: t('columns.mail'),
      width: 120,
      sortable: false,
      renderCell: ({ row }) => (
        <StatusChip
          label={tCommon(`mailState.${row.mailState}`)}
          color={MAIL_STATE_COLORS[row.mailState]}
        />
      ),
    },
    {
      field: 'createdAt',
      headerName: t('columns.received'),
      width: 170,
      valueFormatter: (value: string) => format.dateTime(value),
    },
    contactActionsColumn(options),
  ];
}
