import type { MailingListDto } from '@agency/contracts';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { RecordCard } from '../../../components/admin/record-card';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';
import { ListDeletionProgress } from './list-deletion-progress';

/** One mailing list as a phone shows it: its members, or its deletion's progress. */
export function MailingListCard({ row, actions }: { row: MailingListDto; actions?: ReactNode }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  return (
    <RecordCard title={row.name} actions={actions}>
      {row.description ? <Typography variant="body2">{row.description}</Typography> : null}
      {row.deletion ? (
        <ListDeletionProgress name={row.name} deletion={row.deletion} />
      ) : (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('lists.members', { people: format.number(row.memberCount) })}
        </Typography>
      )}
    </RecordCard>
  );
}
