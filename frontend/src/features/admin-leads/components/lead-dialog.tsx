import type { LeadDto } from '@agency/contracts';
import Alert from '@mui/material/Alert';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LoadError } from '../../../components/admin/load-error';
import { ViewDialog } from '../../../components/admin/view-dialog';
import { useAdminCan } from '../../../lib/admin-session';
import { errorStatusOf } from '../../../lib/api-errors';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useLeadQuery } from '../api/leads-api';
import { LEADS_NAMESPACE } from '../leads-namespace';
import { LeadEnquiry } from './lead-enquiry';
import { LeadFormDialog } from './lead-form-dialog';

/** A lead for a role that may read but not change it. */
function LeadSummary({ lead }: { lead: LeadDto }) {
  const { t } = useNamespace(LEADS_NAMESPACE);
  const format = useFormatters();
  const rows: [string, string][] = [
    [t('dialog.company'), lead.company ?? ''],
    [t('dialog.email'), lead.email ?? ''],
    [t('dialog.phone'), lead.phone ?? ''],
    [t('dialog.status'), t(`status.${lead.status}`)],
    [t('dialog.source'), t(`source.${lead.source}`)],
    [
      t('dialog.estimatedValue'),
      lead.estimatedValue === undefined ? t('noValue') : format.money(lead.estimatedValue),
    ],
    [t('dialog.assignee'), lead.assignee?.username ?? t('unassigned')],
    [t('dialog.notes'), lead.notes ?? ''],
  ];
  return (
    <Stack spacing={2}>
      <Stack component="dl" spacing={1} sx={{ m: 0 }}>
        {rows
          .filter(([, value]) => value)
          .map(([term, value]) => (
            <Stack key={term} direction="row" spacing={2}>
              <Typography component="dt" sx={{ minWidth: 140, color: 'text.secondary' }}>
                {term}
              </Typography>
              <Typography component="dd" sx={{ m: 0, whiteSpace: 'pre-wrap' }}>
                {value}
              </Typography>
            </Stack>
          ))}
      </Stack>
      {lead.contactId ? <LeadEnquiry contactId={lead.contactId} /> : null}
    </Stack>
  );
}

export interface LeadDialogProps {
  /** The lead to open (from the address); none to add one. */
  leadId?: string;
  onClose: () => void;
}

/** Opens a lead by id: its form for those who may edit it, its details for the others. */
export function LeadDialog({ leadId, onClose }: LeadDialogProps) {
  const { t } = useNamespace(LEADS_NAMESPACE);
  const canWrite = useAdminCan('leads:write');
  const { data: lead, isError, error, refetch } = useLeadQuery(leadId ?? '', { skip: !leadId });

  if (!leadId) return <LeadFormDialog onClose={onClose} />;
  if (lead && canWrite) return <LeadFormDialog key={lead.id} lead={lead} onClose={onClose} />;

  let content;
  if (lead) {
    content = <LeadSummary lead={lead} />;
  } else if (isError) {
    const missing = errorStatusOf(error) === 404 || errorStatusOf(error) === 400;
    content = missing ? (
      <Alert severity="warning">{t('dialog.notFound')}</Alert>
    ) : (
      <LoadError title={t('dialog.loadError')} onRetry={() => void refetch()} />
    );
  } else {
    content = <Skeleton variant="rounded" height={200} aria-busy />;
  }
  return (
    <ViewDialog title={lead?.name ?? t('dialog.viewTitle')} maxWidth="sm" onClose={onClose}>
      {content}
    </ViewDialog>
  );
}
