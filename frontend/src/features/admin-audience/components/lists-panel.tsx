import { type MailingListDto } from '@agency/contracts';
import PlaylistAddIcon from '@mui/icons-material/PlaylistAdd';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useCallback, useMemo, useState } from 'react';
import { AdminList } from '../../../components/admin/admin-list';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { EmptyState } from '../../../components/admin/empty-state';
import { ListToolbar } from '../../../components/admin/list-toolbar';
import { useAdminCan } from '../../../lib/admin-session';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';
import { ListDialog } from './list-dialog';
import { MailingListCard } from './mailing-list-card';
import { mailingListActions, mailingListColumns } from './mailing-list-columns';
import { useMailingLists } from './use-mailing-lists';

type Editing = { list?: MailingListDto } | null;

/** The mailing lists: name, description and members; add, edit, delete, import into one. */
export function ListsPanel() {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  const canWrite = useAdminCan('lists:write');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<MailingListDto | null>(null);
  const { list, query, removeList } = useMailingLists();
  const actions = useCallback(
    (row: MailingListDto) =>
      mailingListActions(row, t, (edited) => setEditing({ list: edited }), setDeleting),
    [t],
  );
  // Columns rebuilt on every render would reset the grid: only their inputs renew them.
  const columns = useMemo(
    () => mailingListColumns(t, format, canWrite ? actions : undefined),
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
          <MailingListCard row={row} actions={canWrite ? (actions(row) ?? undefined) : undefined} />
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
          // The dialog closes at once: the row's progress shows the deletion.
          setDeleting(null);
          if (deleting) void removeList(deleting);
        }}
        onClose={() => setDeleting(null)}
      />
    </>
  );
}
