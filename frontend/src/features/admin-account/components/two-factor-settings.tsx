import type {
  ReauthenticationInput,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from '@agency/contracts';
import PhonelinkLockIcon from '@mui/icons-material/PhonelinkLock';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { LoadError } from '../../../components/admin/load-error';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { ACCOUNT_NAMESPACE } from '../account-namespace';
import {
  useConfirmTwoFactorMutation,
  useDisableTwoFactorMutation,
  useRenewRecoveryCodesMutation,
  useSetupTwoFactorMutation,
  useTwoFactorStatusQuery,
} from '../api/account-api';
import { useProofRefusal } from '../hooks/use-proof-refusal';
import { EnrolmentPanel } from './enrolment-panel';
import { ReauthenticationDialog, type ProofRefusal } from './reauthentication-dialog';
import { RecoveryCodes } from './recovery-codes';

type Change = 'setup' | 'renew' | 'disable';

type Mode =
  | { name: 'idle' }
  /** The password (kept only until the set-up is confirmed) goes with the first code. */
  | { name: 'enrol'; setup: TwoFactorSetupResponse; password: string }
  | { name: 'codes'; codes: string[] };

/**
 * What the section shows (idle, enrolling, new codes), which change waits for
 * the password, and the changes themselves.
 */
function useTwoFactorChanges() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const toast = useToast();
  const [setup] = useSetupTwoFactorMutation();
  const [confirm] = useConfirmTwoFactorMutation();
  const [renew] = useRenewRecoveryCodesMutation();
  const [disable] = useDisableTwoFactorMutation();
  const [mode, setMode] = useState<Mode>({ name: 'idle' });
  const [asking, setAsking] = useState<Change | null>(null);
  const refusalOf = useProofRefusal(t('twoFactor.failed'));

  /** Makes the change with the proof typed in the dialog; closes it once done. */
  const change = async (proof: ReauthenticationInput): Promise<ProofRefusal | undefined> => {
    try {
      if (asking === 'setup') {
        const password = proof.password ?? '';
        const answer = await setup({ password }).unwrap();
        setMode({ name: 'enrol', setup: answer, password });
      } else if (asking === 'renew') {
        const { recoveryCodes } = await renew(proof).unwrap();
        setMode({ name: 'codes', codes: recoveryCodes });
      } else {
        await disable(proof).unwrap();
        setMode({ name: 'idle' });
        toast({ title: t('twoFactor.turnedOff'), variant: 'success' });
      }
      setAsking(null);
      return undefined;
    } catch (error: unknown) {
      return refusalOf(error);
    }
  };

  const confirmCode = async (code: string, password: string) => {
    try {
      const { recoveryCodes } = await confirm({ code, password }).unwrap();
      setMode({ name: 'codes', codes: recoveryCodes });
      toast({ title: t('twoFactor.turnedOn'), variant: 'success' });
      return undefined;
    } catch (error: unknown) {
      const reasons = refusalOf(error);
      return reasons?.code ?? reasons?.password;
    }
  };

  return { mode, setMode, asking, setAsking, change, confirmCode };
}

type TwoFactorChanges = ReturnType<typeof useTwoFactorChanges>;

interface TwoFactorOnProps {
  status: TwoFactorStatusResponse;
  onAsk: (change: Change) => void;
}

/** On: since when, the recovery codes left, new codes, and turning it off (unless the role needs it). */
function TwoFactorOn({ status, onAsk }: TwoFactorOnProps) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const format = useFormatters();
  return (
    <Stack spacing={2}>
      <Alert severity="success">
        {t('twoFactor.onSince', {
          date: status.enabledAt ? format.dateTime(status.enabledAt) : '',
        })}
      </Alert>
      <Typography variant="body2">
        {t('twoFactor.codesLeft', { count: status.recoveryCodesLeft })}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <Button variant="outlined" onClick={() => onAsk('renew')}>
          {t('twoFactor.renew')}
        </Button>
        {status.required ? null : (
          <Button variant="outlined" color="error" onClick={() => onAsk('disable')}>
            {t('twoFactor.turnOff')}
          </Button>
        )}
      </Stack>
      {status.required ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('twoFactor.requiredForRole')}
        </Typography>
      ) : null}
    </Stack>
  );
}

/** Off: why to turn it on, and the button that does. */
function TwoFactorOff({ onAsk }: { onAsk: (change: Change) => void }) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  return (
    <Stack spacing={2}>
      <Typography variant="body2">{t('twoFactor.offHint')}</Typography>
      <Button variant="contained" onClick={() => onAsk('setup')} sx={{ alignSelf: 'flex-start' }}>
        {t('twoFactor.turnOn')}
      </Button>
    </Stack>
  );
}

/** The section's body: loading, new codes, the enrolment under way, or the status. */
function TwoFactorBody({ changes }: { changes: TwoFactorChanges }) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const { data, isLoading, isError, refetch } = useTwoFactorStatusQuery(undefined);
  const { mode, setMode, setAsking, confirmCode } = changes;
  if (isError && !data) {
    return <LoadError title={t('twoFactor.loadError')} onRetry={() => void refetch()} />;
  }
  if (isLoading || !data) return <Skeleton height={64} aria-busy />;
  if (mode.name === 'codes') {
    return <RecoveryCodes codes={mode.codes} onDone={() => setMode({ name: 'idle' })} />;
  }
  if (mode.name === 'enrol') {
    const { password } = mode;
    return (
      <Stack spacing={2}>
        <EnrolmentPanel
          setup={mode.setup}
          failed={false}
          onCode={(code) => confirmCode(code, password)}
        />
        <Button onClick={() => setMode({ name: 'idle' })} sx={{ alignSelf: 'flex-start' }}>
          {t('twoFactor.cancel')}
        </Button>
      </Stack>
    );
  }
  if (data.enabled) return <TwoFactorOn status={data} onAsk={setAsking} />;
  return <TwoFactorOff onAsk={setAsking} />;
}

/**
 * Settings: the second factor, on or off; set-up, new recovery codes,
 * turning it off. Each of those asks for the password first (or a current
 * code while it is on): a session alone never changes it.
 */
export function TwoFactorSettings() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const changes = useTwoFactorChanges();
  const { asking, setAsking, change } = changes;
  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="two-factor-title">
      <Stack spacing={2}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <PhonelinkLockIcon color="primary" />
          <Typography variant="h6" component="h2" id="two-factor-title">
            {t('twoFactor.settingsTitle')}
          </Typography>
        </Stack>
        <TwoFactorBody changes={changes} />
      </Stack>
      {asking ? (
        <ReauthenticationDialog
          title={t(`reauthentication.${asking}Title`)}
          description={t(`reauthentication.${asking}Text`)}
          submitLabel={t(`reauthentication.${asking}Submit`)}
          codeAccepted={asking !== 'setup'}
          onSubmit={change}
          onClose={() => setAsking(null)}
        />
      ) : null}
    </Paper>
  );
}
