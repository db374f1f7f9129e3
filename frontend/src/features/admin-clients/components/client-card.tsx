import type { ClientDto } from '@agency/contracts';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { RecordCard } from '../../../components/admin/record-card';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { CLIENTS_NAMESPACE } from '../clients-namespace';
import { clientBudget, clientIndustry, clientStatusChip } from './client-columns';

/** One client as a phone shows it, in place of a table row. */
export function ClientCard({ client, actions }: { client: ClientDto; actions?: ReactNode }) {
  const { t } = useNamespace(CLIENTS_NAMESPACE);
  const format = useFormatters();
  return (
    <RecordCard title={client.companyName} badge={clientStatusChip(client, t)} actions={actions}>
      <Typography variant="body2">{client.contactPerson}</Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', wordBreak: 'break-all' }}>
        {client.email}
      </Typography>
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        {clientIndustry(client, t)} · {clientBudget(client, t, format)}
      </Typography>
    </RecordCard>
  );
}
