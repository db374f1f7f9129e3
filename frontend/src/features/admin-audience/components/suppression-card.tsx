import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { RecordCard } from '../../../components/admin/record-card';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import type { SuppressionRow } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';
import { suppressionDetail, suppressionReasonChip } from './suppression-columns';

/** One suppressed address as a phone shows it: why, from where, since when. */
export function SuppressionCard({ row, actions }: { row: SuppressionRow; actions?: ReactNode }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  const detail = suppressionDetail(row);
  return (
    <RecordCard title={row.email} badge={suppressionReasonChip(row, t)} actions={actions}>
      <Typography variant="body2">
        {t(`suppression.sources.${row.source}`)} · {format.date(row.at)}
      </Typography>
      {detail ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {detail}
        </Typography>
      ) : null}
    </RecordCard>
  );
}
