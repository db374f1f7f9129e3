import { type MailingListDto, type MailingListQuery } from '@agency/contracts';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridColDef } from '@mui/x-data-grid';
import { useCallback, useMemo, useState } from 'react';
import { AdminList } from '../../../components/admin/admin-list';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { EmptyState } from '../../../components/admin/empty-state';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { RecordCard } from '../../../components/admin/record-card';
import {
  actionsColumn,
  deleteAction,
  editAction,
  RowActions,
} from '../../../components/admin/row-actions';
import { useAdminCan } from '../../../lib/admin-session';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useToast } from '../../../lib/use-toast';
import { adminAudiencePath } from '../../../lib/admin-paths';
import { useFormatters } from '../../../lib/use-formatters';
import { useListParams } from '../../../lib/use-list-params';
import { useNamespace } from '../../../lib/translations';
import { useDeleteMailingListMutation, useMailingListsQuery } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';
import { ListDeletionProgress } from './list-deletion-progress';
import { ListDialog } from './list-dialog';

type Editing = { list?: MailingListDto } | null;

/** How often the lists are read again while one is being deleted, for its progress. */
export const DELETION_POLL_MS = 2000;

/** The mailing lists: name, description and members; add, edit, delete, import into one. */
export function ListsPanel() {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  const canWrite = useAdminCan('lists:write');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<MailingListDto | null>(null);
  const [deleteList] = useDeleteMailingListMutation();
  const toast = useToast();
  const list = useListParams({
    sortFields: ['name', 'createdAt', 'memberCount'],
    defaultSort: 'name',
  });
  const listQuery = list.query as Partial<MailingListQuery>;
  const query = useMailingListsQuery(listQuery);
  // While a list on the page is being deleted, a second subscription to the same
  // page reads it again every few seconds: its progress moves, and it leaves
  // the page once the worker has removed it.
  const anyDeleting = query.data?.items.some((row) => row.state === 'deleting') ?? false;
  useMailingListsQuery(listQuery, { pollingInterval: DELETION_POLL_MS, skip: !anyDeleting });

  /**
   * The dialog closes at once: the API only marks the list (202) and the
   * worker removes its members, so the row's progress is what to watch.
   */
  const confirmDelete = async (row: MailingListDto) => {
    setDeleting(null);
    try {
      await deleteList(row.id).unwrap();
      toast({ title: t('toasts.deleteStarted', { name: row.name }), variant: 'success' });
    } catch (error: unknown) {
      toast({
        title: t('toasts.errorTitle'),
        description: apiErrorMessage(error) ?? t('toasts.deleteFailed'),
        variant: 'destructive',
      });
    }
  };

  const actions = useCallback(
    (row: MailingListDto) =>
      row.state === 'deleting' ? null : (
        <RowActions
          actions={[
            {
              label: t('lists.import', { name: row.name }),
              icon: <UploadFileIcon fontSize="small" />,
              to: `${adminAudiencePath('imports')}?list=${encodeURIComponent(row.id)}`,
            },
            editAction(t('lists.edit', { name: row.name }), () => setEditing({ list: row })),
            deleteAction(t('lists.delete', { name: row.name }), () => setDeleting(row)),
          ]}
        />
      ),
    [t],
  );

  const columns = useMemo<GridColDef<MailingListDto>[]>(
    () => [
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
      ...(canWrite ? [actionsColumn(t('lists.columns.actions'), actions, 130)] : []),
    ],
    [t, format, canWrite, actions],
  );

  const addButton = (
    <Button variant="contained" startIcon={<PlaylistAddIcon />} onClick={() => setEditing({})}>
      {t('lists.add')}
    </Button>
  );

  return (
    <>
      <ListToolbar list={list}>
        {canWrite ? <Stack sx={{ ml: { sm: 'auto' } }}>{addButton}</Stack> : null}
      </ListToolbar>
      <AdminList
        label={t('lists.tableLabel')}
        query={query}
        list={list}
        empty={
          <EmptyState
            icon={<PlaylistAddIcon />}
            title={t('lists.empty')}
            description={t('lists.emptyHint')}
            action={canWrite ? addButton : undefined}
          />
        }
        columns={columns}
        renderCard={(row) => (
          <RecordCard title={row.name} actions={canWrite ? (actions(row) ?? undefined) : undefined}>
            {row.description ? <Typography variant="body2">{row.description}</Typography> : null}
            {row.deletion ? (
              <ListDeletionProgress name={row.name} deletion={row.deletion} />
            ) : (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('lists.members', { people: format.number(row.memberCount) })}
              </Typography>
            )}
          </RecordCard>
        )}
      />
      {editing ? <ListDialog list={editing.list} onClose={() => setEditing(null)} /> : null}
      <ConfirmDialog
        open={Boolean(deleting)}
        title={deleting ? t('confirmDelete.title', { name: deleting.name }) : ''}
        description={t('confirmDelete.description')}
        confirmLabel={t('confirmDelete.confirm')}
        destructive
        onConfirm={() => {
          if (deleting) void confirmDelete(deleting);
        }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
