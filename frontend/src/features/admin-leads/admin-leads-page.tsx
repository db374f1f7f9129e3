import type { LeadDto } from '@agency/contracts';
import AddIcon from '@mui/icons-material/Add';
import Button from '@mui/material/Button';
import { useCallback, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { DeleteConfirmDialog } from '../../components/admin/delete-confirm-dialog';
import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { ADMIN_PATHS } from '../../lib/admin-paths';
import { useAdminCan } from '../../lib/admin-session';
import { useNamespace } from '../../lib/translations';
import { useDeleteLeadMutation } from './api/leads-api';
import { LeadDialog } from './components/lead-dialog';
import { LeadsList } from './components/leads-list';
import { LEADS_NAMESPACE } from './leads-namespace';

/** /admin/leads, and /admin/leads/:leadId with that lead open. */
export function AdminLeadsPage() {
  const { t } = useNamespace(LEADS_NAMESPACE);
  const navigate = useNavigate();
  const { leadId } = useParams();
  const { search } = useLocation();
  const canWrite = useAdminCan('leads:write');
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<LeadDto | null>(null);
  const [deleteLead] = useDeleteLeadMutation();
  const onDelete = useCallback((lead: LeadDto) => setDeleting(lead), []);

  const addButton = (
    <Button variant="contained" startIcon={<AddIcon />} onClick={() => setAdding(true)}>
      {t('add')}
    </Button>
  );

  return (
    <RequirePermission permission="leads:read">
      <PageHeading
        title={t('title')}
        subtitle={t('subtitle')}
        actions={canWrite ? addButton : null}
      />
      <LeadsList canWrite={canWrite} onDelete={onDelete} addButton={addButton} />
      {adding ? <LeadDialog onClose={() => setAdding(false)} /> : null}
      {leadId ? (
        <LeadDialog
          key={leadId}
          leadId={leadId}
          onClose={() => void navigate(`${ADMIN_PATHS.leads}${search}`)}
        />
      ) : null}
      <DeleteConfirmDialog
        item={deleting}
        title={(item) => t('confirmDelete.title', { name: item.name })}
        description={t('confirmDelete.description')}
        confirmLabel={t('confirmDelete.confirm')}
        remove={deleteLead}
        deleted={t('toasts.deleted')}
        failed={{ title: t('toasts.errorTitle'), fallback: t('toasts.deleteFailed') }}
        onClose={() => setDeleting(null)}
      />
    </RequirePermission>
  );
}
