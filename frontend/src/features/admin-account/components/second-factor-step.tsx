import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNamespace } from '../../../lib/translations';
import { ACCOUNT_NAMESPACE } from '../account-namespace';
import { CodeForm } from './code-form';

export interface SecondFactorStepProps {
  /** Answers the reason to show under the field when the code was refused. */
  onCode: (code: string) => Promise<string | undefined>;
  onCancel: () => void;
}

/** After the password: the code from the authenticator app, or a recovery code. */
export function SecondFactorStep({ onCode, onCancel }: SecondFactorStepProps) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const [recovery, setRecovery] = useState(false);
  return (
    <Stack spacing={2}>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {recovery ? t('twoFactor.recoveryHint') : t('twoFactor.codeHint')}
      </Typography>
      <CodeForm
        key={recovery ? 'recovery' : 'totp'}
        label={recovery ? t('twoFactor.recoveryCode') : t('twoFactor.code')}
        submitLabel={t('twoFactor.verify')}
        busyLabel={t('twoFactor.verifying')}
        recovery={recovery}
        onSubmit={onCode}
      />
      <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap', gap: 1 }}>
        <Button size="small" onClick={() => setRecovery(!recovery)}>
          {recovery ? t('twoFactor.useApp') : t('twoFactor.useRecovery')}
        </Button>
        <Button size="small" color="inherit" onClick={onCancel}>
          {t('twoFactor.startOver')}
        </Button>
      </Stack>
    </Stack>
  );
}
