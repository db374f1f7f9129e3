import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { LoadError } from '../../../components/admin/load-error';
import { adminContactPath } from '../../../lib/admin-paths';
import { errorStatusOf } from '../../../lib/api-errors';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useLeadEnquiryQuery } from '../api/leads-api';
import { LEADS_NAMESPACE } from '../leads-namespace';

/** On a lead converted from a contact: the enquiry it came from. */
export function LeadEnquiry({ contactId }: { contactId: string }) {
  const { t } = useNamespace(LEADS_NAMESPACE);
  const { t: tShell } = useTranslation();
  const format = useFormatters();
  const { data: enquiry, isLoading, isError, error, refetch } = useLeadEnquiryQuery(contactId);

  let body;
  if (isError && !enquiry) {
    body =
      errorStatusOf(error) === 404 ? (
        <Alert severity="info">{t('enquiry.gone')}</Alert>
      ) : (
        <LoadError title={t('enquiry.loadError')} onRetry={() => void refetch()} />
      );
  } else if (isLoading || !enquiry) {
    body = <Skeleton variant="rounded" height={96} aria-busy />;
  } else {
    body = (
      <Stack spacing={0.5}>
        <Typography sx={{ fontWeight: 700 }}>
          {enquiry.firstName} {enquiry.lastName} · {tShell(`serviceNames.${enquiry.service}`)}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('enquiry.received', { time: format.dateTime(enquiry.createdAt) })}
        </Typography>
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap' }}>
          {enquiry.message}
        </Typography>
        <Button
          component={RouterLink}
          to={adminContactPath(enquiry.id)}
          size="small"
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('enquiry.open')}
        </Button>
      </Stack>
    );
  }
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label={t('enquiry.title')}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, mb: 1 }}>
        {t('enquiry.title')}
      </Typography>
      {body}
    </Paper>
  );
}
