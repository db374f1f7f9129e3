import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useNamespace } from '../../lib/translations';
import { ADMIN_COMMON_NAMESPACE } from './admin-common-namespace';

export interface LoadErrorProps {
  /** What failed to load; defaults to "This list could not be loaded." */
  title?: string;
  onRetry: () => void;
}

/** A failed read, with a way to try again (a 401 never gets here: it ends the session). */
export function LoadError({ title, onRetry }: LoadErrorProps) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={onRetry}>
          {t('actions.retry')}
        </Button>
      }
    >
      <AlertTitle>{title ?? t('list.loadError')}</AlertTitle>
      {t('list.loadErrorDetail')}
    </Alert>
  );
}
