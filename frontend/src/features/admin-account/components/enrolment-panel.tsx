import type { TwoFactorSetupResponse } from '@agency/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { QRCodeSVG } from 'qrcode.react';
import { useNamespace } from '../../../lib/translations';
import { ACCOUNT_NAMESPACE } from '../account-namespace';
import { CodeForm } from './code-form';

export interface EnrolmentPanelProps {
  /** The new secret, or undefined while it is being made. */
  setup: TwoFactorSetupResponse | undefined;
  failed: boolean;
  onCode: (code: string) => Promise<string | undefined>;
}

/** Adding the account to an authenticator app: the QR code, the secret to type, one code to confirm. */
export function EnrolmentPanel({ setup, failed, onCode }: EnrolmentPanelProps) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  if (failed) return <Alert severity="error">{t('twoFactor.setupFailed')}</Alert>;
  if (!setup) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
        <CircularProgress aria-label={t('twoFactor.preparing')} />
      </Box>
    );
  }
  // Groups of four are easier to type into an app.
  const groupedSecret = setup.secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <Stack spacing={2}>
      <Typography variant="body2">{t('twoFactor.scan')}</Typography>
      <Box
        sx={{ alignSelf: 'center', p: 1.5, bgcolor: '#fff', borderRadius: 1, lineHeight: 0 }}
        role="img"
        aria-label={t('twoFactor.qrLabel')}
      >
        <QRCodeSVG value={setup.otpauthUri} size={176} level="M" />
      </Box>
      <Typography variant="body2">{t('twoFactor.orType')}</Typography>
      <Typography
        component="code"
        data-testid="two-factor-secret"
        sx={{
          fontFamily: 'monospace',
          fontSize: '1rem',
          wordBreak: 'break-all',
          bgcolor: 'action.hover',
          p: 1,
          borderRadius: 1,
          direction: 'ltr',
        }}
      >
        {groupedSecret}
      </Typography>
      <CodeForm
        label={t('twoFactor.code')}
        submitLabel={t('twoFactor.confirm')}
        busyLabel={t('twoFactor.verifying')}
        onSubmit={onCode}
      />
    </Stack>
  );
}
