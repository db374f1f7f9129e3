import type { TwoFactorSetupResponse } from '@agency/contracts';
import PhonelinkLockIcon from '@mui/icons-material/PhonelinkLock';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { LoadError } from '../../../components/admin/load-error';
import { errorStatusOf, fieldErrorsOf } from '../../../lib/api-errors';
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
import { CodeForm } from './code-form';
import { EnrolmentPanel } from './enrolment-panel';
import { RecoveryCodes } from './recovery-codes';

type Mode =
  | { name: 'idle' }
  | { name: 'enrol'; setup?: TwoFactorSetupResponse; failed?: boolean }
  | { name: 'renew' }
  | { name: 'disable' }
  | { name: 'codes'; codes: string[] };

/** Settings: the second factor, on or off; set-up, new recovery codes, turning it off. */
export function TwoFactorSettings() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const format = useFormatters();
  const toast = useToast();
  const { data, isLoading, isError, refetch } = useTwoFactorStatusQuery(undefined);
  const [setup] = useSetupTwoFactorMutation();
  const [confirm] = useConfirmTwoFactorMutation();
  const [renew] = useRenewRecoveryCodesMutation();
  const [disable, { isLoading: disabling }] = useDisableTwoFactorMutation();
  const [mode, setMode] = useState<Mode>({ name: 'idle' });
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | undefined>();

  const refused = (error: unknown): string | undefined => {
    const field = fieldErrorsOf(error, ['code'] as const)?.code;
    if (field) return field;
    toast({
      title: t('twoFactor.failed'),
      description: errorStatusOf(error) === 429 ? t('login.tooManyAttempts') : undefined,
      variant: 'destructive',
    });
    return undefined;
  };

  const startEnrolment = () => {
    setMode({ name: 'enrol' });
    setup(undefined)
      .unwrap()
      .then((answer) => setMode({ name: 'enrol', setup: answer }))
      .catch(() => setMode({ name: 'enrol', failed: true }));
  };

  const turnOff = async () => {
    try {
      await disable({ password }).unwrap();
      setPassword('');
      setMode({ name: 'idle' });
      toast({ title: t('twoFactor.turnedOff'), variant: 'success' });
    } catch (error: unknown) {
      setPasswordError(fieldErrorsOf(error, ['password'] as const)?.password);
      if (!fieldErrorsOf(error, ['password'] as const)) refused(error);
    }
  };

  let body;
  if (isError && !data) {
    body = <LoadError title={t('twoFactor.loadError')} onRetry={() => void refetch()} />;
  } else if (isLoading || !data) {
    body = <Skeleton height={64} aria-busy />;
  } else if (mode.name === 'codes') {
    body = <RecoveryCodes codes={mode.codes} onDone={() => setMode({ name: 'idle' })} />;
  } else if (mode.name === 'enrol') {
    body = (
      <EnrolmentPanel
        setup={mode.setup}
        failed={Boolean(mode.failed)}
        onCode={async (code) => {
          try {
            const { recoveryCodes } = await confirm({ code }).unwrap();
            setMode({ name: 'codes', codes: recoveryCodes });
            toast({ title: t('twoFactor.turnedOn'), variant: 'success' });
            return undefined;
          } catch (error: unknown) {
            return refused(error);
          }
        }}
      />
    );
  } else if (mode.name === 'renew') {
    body = (
      <CodeForm
        label={t('twoFactor.code')}
        submitLabel={t('twoFactor.renew')}
        busyLabel={t('twoFactor.verifying')}
        onSubmit={async (code) => {
          try {
            const { recoveryCodes } = await renew({ code }).unwrap();
            setMode({ name: 'codes', codes: recoveryCodes });
            return undefined;
          } catch (error: unknown) {
            return refused(error);
          }
        }}
      />
    );
  } else if (mode.name === 'disable') {
    body = (
      <Stack spacing={2}>
        <TextField
          label={t('settings.currentPassword')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={Boolean(passwordError)}
          helperText={passwordError}
          fullWidth
        />
        <Stack direction="row" spacing={1}>
          <Button
            variant="contained"
            color="error"
            disabled={disabling || password === ''}
            onClick={() => void turnOff()}
          >
            {t('twoFactor.turnOff')}
          </Button>
          <Button onClick={() => setMode({ name: 'idle' })}>{t('twoFactor.cancel')}</Button>
        </Stack>
      </Stack>
    );
  } else if (data.enabled) {
    body = (
      <Stack spacing={2}>
        <Alert severity="success">
          {t('twoFactor.onSince', { date: data.enabledAt ? format.dateTime(data.enabledAt) : '' })}
        </Alert>
        <Typography variant="body2">
          {t('twoFactor.codesLeft', { count: data.recoveryCodesLeft })}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <Button variant="outlined" onClick={() => setMode({ name: 'renew' })}>
            {t('twoFactor.renew')}
          </Button>
          {data.required ? null : (
            <Button variant="outlined" color="error" onClick={() => setMode({ name: 'disable' })}>
              {t('twoFactor.turnOff')}
            </Button>
          )}
        </Stack>
        {data.required ? (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('twoFactor.requiredForRole')}
          </Typography>
        ) : null}
      </Stack>
    );
  } else {
    body = (
      <Stack spacing={2}>
        <Typography variant="body2">{t('twoFactor.offHint')}</Typography>
        <Button variant="contained" onClick={startEnrolment} sx={{ alignSelf: 'flex-start' }}>
          {t('twoFactor.turnOn')}
        </Button>
      </Stack>
    );
  }

  return (
    <Paper variant="outlined" sx={{ p: 3 }} component="section" aria-labelledby="two-factor-title">
      <Stack spacing={2}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <PhonelinkLockIcon color="primary" />
          <Typography variant="h6" component="h2" id="two-factor-title">
            {t('twoFactor.settingsTitle')}
          </Typography>
        </Stack>
        {body}
      </Stack>
    </Paper>
  );
}
