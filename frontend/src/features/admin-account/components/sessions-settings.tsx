import type { ReauthenticationInput, SessionDto } from '@agency/contracts';
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
  useTwoFactorStatusQuery,
} from '../api/account-api';
import { useProofRefusal } from '../hooks/use-proof-refusal';
import { ReauthenticationDialog } from './reauthentication-dialog';

type Ending = { kind: 'one'; session: SessionDto } | { kind: 'others' } | null;

/**
 * Which ending is being asked for, and the endings themselves: one session at
 * once, or every other one behind the password.
 */
function useSessionEnding() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const toast = useToast();
  const [endSession, { isLoading: endingOne }] = useEndSessionMutation();
  const [endOthers] = useEndOtherSessionsMutation();
  const [ending, setEnding] = useState<Ending>(null);
  const refusalOf = useProofRefusal(t('sessions.failed'));

  const endOne = async (session: SessionDto) => {
    try {
      await endSession(session.id).unwrap();
      toast({ title: t('sessions.ended'), variant: 'success' });
    } catch {
      toast({ title: t('sessions.failed'), variant: 'destructive' });
    }
    setEnding(null);
  };

  /** Signing out everywhere else asks for the password: a stolen session must not lock the owner out. */
  const endAllOthers = async (proof: ReauthenticationInput) => {
    try {
      await endOthers(proof).unwrap();
      toast({ title: t('sessions.ended'), variant: 'success' });
      setEnding(null);
      return undefined;
    } catch (error: unknown) {
      return refusalOf(error);
    }
  };

  return { ending, setEnding, endingOne, endOne, endAllOthers };
}

type SessionEnding = ReturnType<typeof useSessionEnding>;

/** Each session: its browser, address and times; this one marked, the others with an End button. */
function SessionsList({
  sessions,
  onEnd,
}: {
  sessions: SessionDto[];
  onEnd: (session: SessionDto) => void;
}) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const format = useFormatters();
  return (
    <List disablePadding aria-label={t('sessions.title')}>
      {sessions.map((session) => (
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
                onClick={() => onEnd(session)}
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

/** The confirmation of one ending, or the password dialog before ending all the others. */
function EndSessionDialogs({ sessionEnding }: { sessionEnding: SessionEnding }) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const { data: twoFactor } = useTwoFactorStatusQuery(undefined);
  const { ending, setEnding, endingOne, endOne, endAllOthers } = sessionEnding;
  return (
    <>
      <ConfirmDialog
        open={ending?.kind === 'one'}
        title={t('sessions.confirmOne')}
        description={
          ending?.kind === 'one'
            ? t('sessions.confirmOneText', { device: ending.session.device })
            : ''
        }
        confirmLabel={t('sessions.end')}
        destructive
        busy={endingOne}
        onConfirm={() => {
          if (ending?.kind === 'one') void endOne(ending.session);
        }}
        onClose={() => setEnding(null)}
      />
      {ending?.kind === 'others' ? (
        <ReauthenticationDialog
          title={t('sessions.confirmOthers')}
          description={
            twoFactor?.enabled
              ? t('reauthentication.endOthersTextCode')
              : t('reauthentication.endOthersText')
          }
          submitLabel={t('sessions.end')}
          codeAccepted={Boolean(twoFactor?.enabled)}
          onSubmit={endAllOthers}
          onClose={() => setEnding(null)}
        />
      ) : null}
    </>
  );
}

/** Where you are signed in: each browser, its address and times; end one or all the others. */
export function SessionsSettings() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const { data, isLoading, isError, refetch } = useSessionsQuery(undefined);
  const sessionEnding = useSessionEnding();
  const { setEnding } = sessionEnding;
  const others = data?.items.filter((session) => !session.current) ?? [];

  let body;
  if (isError && !data) {
    body = <LoadError title={t('sessions.loadError')} onRetry={() => void refetch()} />;
  } else if (isLoading || !data) {
    body = <Skeleton height={64} aria-busy />;
  } else {
    body = (
      <SessionsList
        sessions={data.items}
        onEnd={(session) => setEnding({ kind: 'one', session })}
      />
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
      <EndSessionDialogs sessionEnding={sessionEnding} />
    </Paper>
  );
}
