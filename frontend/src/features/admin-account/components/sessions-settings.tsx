import type { SessionDto } from '@agency/contracts';
import DevicesIcon from '@mui/icons-material/Devices';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { LoadError } from '../../../components/admin/load-error';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { ACCOUNT_NAMESPACE } from '../account-namespace';
import {
  useEndOtherSessionsMutation,
  useEndSessionMutation,
  useSessionsQuery,
} from '../api/account-api';

type Ending = { kind: 'one'; session: SessionDto } | { kind: 'others' } | null;

/** Where you are signed in: each browser, its address and times; end one or all the others. */
export function SessionsSettings() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const format = useFormatters();
  const toast = useToast();
  const { data, isLoading, isError, refetch } = useSessionsQuery(undefined);
  const [endSession, { isLoading: endingOne }] = useEndSessionMutation();
  const [endOthers, { isLoading: endingOthers }] = useEndOtherSessionsMutation();
  const [ending, setEnding] = useState<Ending>(null);
  const others = data?.items.filter((session) => !session.current) ?? [];

  const confirm = async () => {
    if (!ending) return;
    try {
      if (ending.kind === 'one') await endSession(ending.session.id).unwrap();
      else await endOthers(undefined).unwrap();
      toast({ title: t('sessions.ended'), variant: 'success' });
    } catch {
      toast({ title: t('sessions.failed'), variant: 'destructive' });
    }
    setEnding(null);
  };

  let body;
  if (isError && !data) {
    body = <LoadError title={t('sessions.loadError')} onRetry={() => void refetch()} />;
  } else if (isLoading || !data) {
    body = <Skeleton height={64} aria-busy />;
  } else {
    body = (
      <List disablePadding aria-label={t('sessions.title')}>
        {data.items.map((session) => (
          <ListItem
            key={session.id}
            divider
            disableGutters
            secondaryAction={
              session.current ? (
                <Chip size="small" color="primary" label={t('sessions.current')} />
              ) : (
                <Button
                  size="small"
                  color="error"
                  onClick={() => setEnding({ kind: 'one', session })}
                  aria-label={t('sessions.endOne', { device: session.device })}
                >
                  {t('sessions.end')}
                </Button>
              )
            }
            sx={{ pr: 12 }}
          >
            <ListItemText
              primary={session.device}
              secondary={t('sessions.details', {
                ip: session.ip,
                signedIn: format.dateTime(session.signedInAt),
                lastSeen: format.dateTime(session.lastSeenAt),
              })}
              slotProps={{ secondary: { sx: { wordBreak: 'break-word' } } }}
            />
          </ListItem>
        ))}
      </List>
    );
  }

  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="sessions-title">
      <Stack spacing={2}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <DevicesIcon color="primary" />
          <Typography variant="h6" component="h2" id="sessions-title">
            {t('sessions.title')}
          </Typography>
        </Stack>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('sessions.hint')}
        </Typography>
        {body}
        <Button
          variant="outlined"
          color="error"
          disabled={others.length === 0}
          onClick={() => setEnding({ kind: 'others' })}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('sessions.endOthers')}
        </Button>
      </Stack>
      <ConfirmDialog
        open={ending !== null}
        title={ending?.kind === 'one' ? t('sessions.confirmOne') : t('sessions.confirmOthers')}
        description={
          ending?.kind === 'one'
            ? t('sessions.confirmOneText', { device: ending.session.device })
            : t('sessions.confirmOthersText')
        }
        confirmLabel={t('sessions.end')}
        destructive
        busy={endingOne || endingOthers}
        onConfirm={() => void confirm()}
        onClose={() => setEnding(null)}
      />
    </Paper>
  );
}
