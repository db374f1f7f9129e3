import HistoryIcon from '@mui/icons-material/History';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ActivityValue, FieldChange } from '@agency/contracts';
import Box from '@mui/material/Box';
import { LoadError } from '../../../components/admin/load-error';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useRecentActivityQuery } from '../api/users-api';
import { USERS_NAMESPACE } from '../users-namespace';

/** The spec's activity list: the last 5 entries. */
export const RECENT_ACTIVITY_COUNT = 5;

function shown(value: ActivityValue | undefined): string {
  if (value === undefined || value === null || value === '') return '—';
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/** The fields an entry changed: old value, then new; a secret only as "changed". */
function ChangeList({ changes }: { changes: readonly FieldChange[] }) {
  const { t } = useNamespace(USERS_NAMESPACE);
  return (
    <Box
      component="ul"
      sx={{ m: 0, mt: 0.5, pl: 2.5, typography: 'body2', wordBreak: 'break-word' }}
    >
      {changes.map((change) => (
        <li key={change.field}>
          {change.redacted ? (
            t('activity.changedSecret', { field: change.field })
          ) : (
            <>
              <Box component="span" sx={{ fontWeight: 600 }}>
                {change.field}
              </Box>
              {': '}
              {change.before !== undefined ? (
                <Box component="del" sx={{ color: 'error.main' }}>
                  {shown(change.before)}
                </Box>
              ) : null}
              {change.before !== undefined && change.after !== undefined ? ' → ' : null}
              {change.after !== undefined ? (
                <Box component="ins" sx={{ color: 'success.main', textDecoration: 'none' }}>
                  {shown(change.after)}
                </Box>
              ) : null}
            </>
          )}
        </li>
      ))}
    </Box>
  );
}

/** Who did what lately (admins only: it needs activity:read). */
export function RecentActivity() {
  const { t } = useNamespace(USERS_NAMESPACE);
  const format = useFormatters();
  const { data, isLoading, isError, refetch } = useRecentActivityQuery(RECENT_ACTIVITY_COUNT);

  let body;
  if (isError && !data) {
    body = <LoadError title={t('activity.error')} onRetry={() => void refetch()} />;
  } else if (isLoading || !data) {
    body = (
      <Stack spacing={1} aria-busy>
        {Array.from({ length: RECENT_ACTIVITY_COUNT }, (_, index) => (
          <Skeleton key={index} height={44} />
        ))}
      </Stack>
    );
  } else if (data.items.length === 0) {
    body = <Typography sx={{ color: 'text.secondary' }}>{t('activity.empty')}</Typography>;
  } else {
    body = (
      <List dense disablePadding aria-label={t('activity.title')}>
        {data.items.slice(0, RECENT_ACTIVITY_COUNT).map((entry) => {
          const who = entry.actor?.username ?? entry.target?.label ?? t('activity.someone');
          const what = t(`activity.actions.${entry.action}`, { defaultValue: entry.action });
          // A sign-in names its own user: "demo signed in", not "demo signed in: demo".
          const label = entry.target?.label;
          const target = label && entry.actor && label !== entry.actor.username ? `: ${label}` : '';
          return (
            <ListItem key={entry.id} divider disableGutters>
              <ListItemText
                primary={`${who} ${what}${target}`}
                secondary={
                  <>
                    {format.dateTime(entry.time)}
                    {entry.changes && entry.changes.length > 0 ? (
                      <ChangeList changes={entry.changes} />
                    ) : null}
                  </>
                }
                slotProps={{ secondary: { component: 'div' } }}
              />
            </ListItem>
          );
        })}
      </List>
    );
  }
  return (
    <Paper variant="outlined" sx={{ p: 2.5 }} component="section" aria-label={t('activity.title')}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1 }}>
        <HistoryIcon color="primary" />
        <Typography variant="h6" component="h2">
          {t('activity.title')}
        </Typography>
      </Stack>
      {body}
    </Paper>
  );
}
