import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useFormatters } from '../../../lib/use-formatters';
import { useMailServerOutage } from '../../../lib/mail-server-status';
import { useNamespace } from '../../../lib/translations';
import { SHELL_NAMESPACE } from '../shell-namespace';

/**
 * Says, on every admin page, that mail is held because the worker cannot
 * reach the SMTP server, since when, and that it will go on by itself. The
 * live region announces it when it appears; it goes when the server is back.
 */
export function MailServerBanner() {
  const { t } = useNamespace(SHELL_NAMESPACE);
  const format = useFormatters();
  const outage = useMailServerOutage();
  return (
    <div role="status" aria-live="polite">
      {outage ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          <AlertTitle>{t('mailServer.title')}</AlertTitle>
          {t('mailServer.description', { since: format.dateTime(outage.since) })}
        </Alert>
      ) : null}
    </div>
  );
}
