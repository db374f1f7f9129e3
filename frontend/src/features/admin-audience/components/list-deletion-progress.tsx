import type { MailingListDeletionDto } from '@agency/contracts';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

/** How far a list's deletion has come: "Deleting… N of M" over a bar screen readers can read. */
export function ListDeletionProgress({
  name,
  deletion,
}: {
  name: string;
  deletion: MailingListDeletionDto;
}) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  const { removed, total } = deletion;
  // An empty list is one step from gone: shown as starting, never as a division by zero.
  const percent = total > 0 ? Math.round((removed / total) * 100) : 0;
  const text = t('lists.deleting', {
    removed: format.number(removed),
    total: format.number(total),
  });
  return (
    <Stack spacing={0.5} sx={{ width: '100%', py: 0.5 }}>
      <LinearProgress
        variant="determinate"
        color="error"
        value={percent}
        aria-label={t('lists.deletingLabel', { name })}
        aria-valuetext={text}
      />
      <Typography variant="caption">{text}</Typography>
    </Stack>
  );
}
