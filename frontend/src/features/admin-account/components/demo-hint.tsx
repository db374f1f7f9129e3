import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import type { LoginOptionsResponse } from '@agency/contracts';
import { useNamespace } from '../../../lib/translations';
import { ACCOUNT_NAMESPACE } from '../account-namespace';

export interface DemoHintProps {
  demo: NonNullable<LoginOptionsResponse['demo']>;
  onUse: () => void;
}

/** The spec's hint box: shown only when the API runs in demo mode. */
export function DemoHint({ demo, onUse }: DemoHintProps) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  return (
    <Alert severity="info" variant="outlined" sx={{ textAlign: 'start' }}>
      <AlertTitle>{t('login.demoTitle')}</AlertTitle>
      <div>{t('login.demoUsername', { username: demo.username })}</div>
      <div>{t('login.demoPassword', { password: demo.password })}</div>
      <Button color="inherit" size="small" onClick={onUse} sx={{ mt: 1, marginInlineStart: -1 }}>
        {t('login.useDemo')}
      </Button>
    </Alert>
  );
}
