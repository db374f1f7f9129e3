import type { ClientDto } from '@agency/contracts';
import AddBusinessIcon from '@mui/icons-material/AddBusiness';
import Button from '@mui/material/Button';
import { useCallback, useState } from 'react';
import { ConfirmDialog } from '../../components/admin/confirm-dialog';
import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { useAdminCan } from '../../lib/admin-session';
import { apiErrorMessage } from '../../lib/api-errors';
import { useNamespace } from '../../lib/translations';
import { useToast } from '../../lib/use-toast';
import { useDeleteClientMutation } from './api/clients-api';
import { CLIENTS_NAMESPACE } from './clients-namespace';
import { ClientDialog } from './components/client-dialog';
import { ClientsList } from './components/clients-list';

type Editing = { client?: ClientDto } | null;

/** /admin/clients: the client records, the spec's Add modal, edit and delete. */
export function AdminClientsPage() {
  const { t } = useNamespace(CLIENTS_NAMESPACE);
  const toast = useToast();
  const canWrite = useAdminCan('clients:write');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ClientDto | null>(null);
  const [deleteClient, { isLoading: removing }] = useDeleteClientMutation();

  const onEdit = useCallback((client: ClientDto) => setEditing({ client }), []);
  const onDelete = useCallback((client: ClientDto) => setDeleting(client), []);

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await deleteClient(deleting.id).unwrap();
      toast({ title: t('toasts.deleted'), variant: 'success' });
      setDeleting(null);
    } catch (error: unknown) {
      toast({
        title: t('toasts.errorTitle'),
        description: apiErrorMessage(error) ?? t('toasts.deleteFailed'),
        variant: 'destructive',
      });
    }
  };

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
      <ConfirmDialog
        open={Boolean(deleting)}
        title={t('confirmDelete.title', { company: deleting?.companyName ?? '' })}
        description={t('confirmDelete.description')}
        confirmLabel={t('confirmDelete.confirm')}
        destructive
        busy={removing}
        onConfirm={() => void confirmDelete()}
        onClose={() => setDeleting(null)}
      />
    </RequirePermission>
  );
}
