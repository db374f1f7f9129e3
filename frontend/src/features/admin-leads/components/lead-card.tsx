import type { LeadDto } from '@agency/contracts';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { RecordCard } from '../../../components/admin/record-card';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { LEADS_NAMESPACE } from '../leads-namespace';
import { leadPath, leadStageChip, leadValue } from './lead-columns';

/** One lead as a phone shows it: tapping opens its page, keeping the list's address. */
export function LeadCard({
  lead,
  addressQuery,
  actions,
}: {
  lead: LeadDto;
  addressQuery: string;
  actions?: ReactNode;
}) {
  const { t } = useNamespace(LEADS_NAMESPACE);
  const format = useFormatters();
  return (
    <RecordCard
      title={lead.name}
      badge={leadStageChip(lead, t)}
      to={`${leadPath(lead)}${addressQuery}`}
      actions={actions}
    >
      {lead.company ? <Typography variant="body2">{lead.company}</Typography> : null}
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {leadValue(lead, t, format)} · {lead.assignee?.username ?? t('unassigned')}
      </Typography>
    </RecordCard>
  );
}
