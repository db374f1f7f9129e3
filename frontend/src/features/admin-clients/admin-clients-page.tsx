import type { ClientDto } from '@agency/contracts';
import AddBusinessIcon from '@mui/icons-material/AddBusiness';
import Button from '@mui/material/Button';
import { useCallback, useState } from 'react';
import { DeleteConfirmDialog } from '../../components/admin/delete-confirm-dialog';
import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { useAdminCan } from '../../lib/admin-session';
import { useNamespace } from '../../lib/translations';
import { useDeleteClientMutation } from './api/clients-api';
import { CLIENTS_NAMESPACE } from './clients-namespace';
import { ClientDialog } from './components/client-dialog';
import { ClientsList } from './components/clients-list';

type Editing = { client?: ClientDto } | null;

/** /admin/clients: the client records, the spec's Add modal, edit and delete. */
export function AdminClientsPage() {
  const { t } = useNamespace(CLIENTS_NAMESPACE);
  const canWrite = useAdminCan('clients:write');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ClientDto | null>(null);
  const [deleteClient] = useDeleteClientMutation();

  const onEdit = useCallback((client: ClientDto) => setEditing({ client }), []);
  const onDelete = useCallback((client: ClientDto) => setDeleting(client), []);

  const addButton = (
    <Button variant="contained" startIcon={<AddBusinessIcon />} onClick={() => setEditing({})}>
      {t('add')}
    </Button>
  );

  return (
    <RequirePermission permission="clients:read">
      <PageHeading
        title={t('title')}
        subtitle={t('subtitle')}
        actions={canWrite ? addButton : null}
      />
      <ClientsList canWrite={canWrite} onEdit={onEdit} onDelete={onDelete} addButton={addButton} />
      {editing ? <ClientDialog client={editing.client} onClose={() => setEditing(null)} /> : null}
      <DeleteConfirmDialog
        item={deleting}
        title={(item) => t('confirmDelete.title', { company: item.companyName })}
        description={t('confirmDelete.description')}
        confirmLabel={t('confirmDelete.confirm')}
        remove={deleteClient}
        deleted={t('toasts.deleted')}
        failed={{ title: t('toasts.errorTitle'), fallback: t('toasts.deleteFailed') }}
        onClose={() => setDeleting(null)}
      />
    </RequirePermission>
  );
}
