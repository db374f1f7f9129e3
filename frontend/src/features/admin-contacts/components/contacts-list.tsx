import {
  CONTACT_SORT_FIELDS,
  CONTACT_STATUSES,
  type ContactDto,
  type ContactListQuery,
} from '@agency/contracts';
import DownloadIcon from '@mui/icons-material/Download';
import InboxIcon from '@mui/icons-material/Inbox';
import VisibilityIcon from '@mui/icons-material/Visibility';
import Button from '@mui/material/Button';
import type { GridColDef } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import { ContactStatusChip } from '../../../components/admin/contact-status-chip';
import { DeleteConfirmDialog } from '../../../components/admin/delete-confirm-dialog';
import { EmptyState } from '../../../components/admin/empty-state';
import { FilterSelect } from '../../../components/admin/filter-select';
import { StatusChip } from '../../../components/admin/status-chip';
import { AdminList } from '../../../components/admin/admin-list';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { actionsColumn, deleteAction, RowActions } from '../../../components/admin/row-actions';
import { adminContactPath } from '../../../lib/admin-paths';
import { useAdminCan } from '../../../lib/admin-session';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useContactListQuery,
  useDeleteContactMutation,
  useExportContactsMutation,
} from '../api/contacts-api';
import { CONTACTS_NAMESPACE } from '../contacts-namespace';
import { ContactCard } from './contact-cards';

const MAIL_STATE_COLORS = { pending: 'warning', sent: 'success', failed: 'error' } as const;

/**
 * The enquiries: a table (cards on a phone) paged by position, sortable by
 * each of its columns, searched by the start of a name or address, a
 * status filter, deletion after a confirmation, and the CSV export of what
 * the filters select.
 */
export function ContactsList() {
  const { t } = useNamespace(CONTACTS_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const { t: tShell } = useTranslation();
  const format = useFormatters();
  const toast = useToast();
  const navigate = useNavigate();
  const { search: addressQuery } = useLocation();
  const canExport = useAdminCan('contacts:export');
  const canWrite = useAdminCan('contacts:write');
  const list = useListParams<'status'>({
    sortFields: CONTACT_SORT_FIELDS,
    defaultSort: '-createdAt',
    filters: ['status'],
    keyset: true,
  });
  const query = list.query as Partial<ContactListQuery>;
  const contacts = useContactListQuery(query);
  const [exportContacts, { isLoading: exporting }] = useExportContactsMutation();
  const [deleteContact] = useDeleteContactMutation();
  const [toDelete, setToDelete] = useState<ContactDto | null>(null);

  // Rebuilding the columns on every render would reset the grid: `open` changes only with the address.
  const open = useCallback(
    (contact: ContactDto) => void navigate(`${adminContactPath(contact.id)}${addressQuery}`),
    [navigate, addressQuery],
  );

  const columns = useMemo<GridColDef<ContactDto>[]>(
    () => [
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
      actionsColumn<ContactDto>(
        t('columns.actions'),
        (row) => (
          <RowActions
            actions={[
              {
                label: t('view', { name: `${row.firstName} ${row.lastName}` }),
                icon: <VisibilityIcon fontSize="small" />,
                onClick: () => open(row),
              },
              canWrite &&
                deleteAction(t('delete', { name: `${row.firstName} ${row.lastName}` }), () =>
                  setToDelete(row),
                ),
            ]}
          />
        ),
        canWrite ? 110 : 80,
      ),
    ],
    [t, tCommon, tShell, format, open, canWrite],
  );

  const runExport = async () => {
    // The export takes the list's search, filters and order, not its page.
    const filters = { ...query };
    delete filters.after;
    delete filters.before;
    delete filters.pageSize;
    try {
      await exportContacts(filters).unwrap();
    } catch (error: unknown) {
      toast({
        title: t('exportFailed'),
        description: apiErrorMessage(error) ?? tCommon('errors.generic'),
        variant: 'destructive',
      });
    }
  };

  const toolbar = (
    <ListToolbar list={list} searchLabel={t('search')} searchHint={t('searchHint')}>
      <FilterSelect
        label={t('statusFilter')}
        value={list.filters.status}
        onChange={(status) => list.setFilter('status', status)}
        allLabel={t('allStatuses')}
        options={CONTACT_STATUSES.map((status) => ({
          value: status,
          label: tCommon(`contactStatus.${status}`, { defaultValue: status }),
        }))}
        minWidth={170}
      />
      {canExport ? (
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          onClick={() => void runExport()}
          disabled={exporting}
          sx={{ marginInlineStart: { sm: 'auto' } }}
        >
          {exporting ? t('exporting') : t('export')}
        </Button>
      ) : null}
    </ListToolbar>
  );

  const body = (
    <AdminList
      label={t('tableLabel')}
      query={contacts}
      list={list}
      empty={<EmptyState icon={<InboxIcon />} title={t('empty')} description={t('emptyHint')} />}
      columns={columns}
      renderCard={(contact) => (
        <ContactCard contact={contact} onDelete={canWrite ? setToDelete : undefined} />
      )}
    />
  );

  return (
    <>
      {toolbar}
      {body}
      <DeleteConfirmDialog
        item={toDelete}
        title={(contact) => t('deleteTitle', { name: `${contact.firstName} ${contact.lastName}` })}
        description={t('deleteDescription')}
        confirmLabel={tCommon('actions.delete')}
        remove={deleteContact}
        deleted={t('deleted')}
        failed={{ title: t('deleteFailed'), fallback: tCommon('errors.generic') }}
        onClose={() => setToDelete(null)}
      />
    </>
  );
}
