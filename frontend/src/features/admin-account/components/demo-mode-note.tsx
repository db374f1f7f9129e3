import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useNamespace } from '../../../lib/translations';
import { ACCOUNT_NAMESPACE } from '../account-namespace';
import { useLoginOptionsQuery } from '../api/account-api';

/**
 * In demo mode the demo admin skips two-factor sign-in, so that a newcomer
 * without an authenticator app can look around: this note keeps anyone from
 * taking that for how production behaves. Nothing shows outside demo mode.
 */
export function DemoModeNote() {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const { data } = useLoginOptionsQuery(undefined);
  if (!data?.demo) return null;
  return (
    <Alert role="note" severity="info" variant="outlined" sx={{ mb: 3, textAlign: 'start' }}>
      <AlertTitle>{t('demoMode.title')}</AlertTitle>
      {t('demoMode.twoFactorNote')}
    </Alert>
  );
}
