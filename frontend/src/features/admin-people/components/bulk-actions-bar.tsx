import { PEOPLE_BULK_ACTIONS, PEOPLE_BULK_MAX, type PeopleBulkAction } from '@agency/contracts';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { PEOPLE_NAMESPACE } from '../people-namespace';
import { BulkActionDialog } from './bulk-action-dialog';
import type { ListNames } from './use-list-names';

/**
 * What can be done with the people chosen: how many, each action in its
 * dialog, and clearing the choice. Shown while someone is chosen.
 */
export function BulkActionsBar({
  emails,
  lists,
  onClear,
}: {
  emails: readonly string[];
  lists: ListNames['activeLists'];
  onClear: () => void;
}) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const format = useFormatters();
  const [action, setAction] = useState<PeopleBulkAction | null>(null);
  const count = emails.length;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-label={t('bulk.label')}
      sx={{ p: 1.5, mb: 2 }}
    >
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        useFlexGap
        sx={{ alignItems: { sm: 'center' }, flexWrap: 'wrap' }}
      >
        <Typography role="status" sx={{ fontWeight: 600, marginInlineEnd: { sm: 1 } }}>
          {t('bulk.selected', { count, formattedCount: format.number(count) })}
          {count >= PEOPLE_BULK_MAX
            ? ` ${t('bulk.max', { max: format.number(PEOPLE_BULK_MAX) })}`
            : ''}
        </Typography>
        {PEOPLE_BULK_ACTIONS.map((name) => (
          <Button
            key={name}
            variant="outlined"
            size="small"
            color={name === 'remove-from-list' ? 'error' : 'primary'}
            onClick={() => setAction(name)}
          >
            {t(`bulk.actions.${name}`)}
          </Button>
        ))}
        <Button size="small" onClick={onClear} sx={{ marginInlineStart: { sm: 'auto' } }}>
          {t('bulk.clear')}
        </Button>
      </Stack>
      {action ? (
        <BulkActionDialog
          action={action}
          emails={emails}
          lists={lists}
          onClose={() => setAction(null)}
        />
      ) : null}
    </Paper>
  );
}
