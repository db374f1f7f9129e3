import type { PrivacyLinkPurpose } from '@agency/contracts';
import DeleteForeverOutlinedIcon from '@mui/icons-material/DeleteForeverOutlined';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useRequestPrivacyLinkMutation } from '../api/newsletter-api';
import { outcomeOfError, statusOfError } from '../newsletter-link';
import { useNamespace } from '../../../lib/translations';
import { NEWSLETTER_NAMESPACE } from '../newsletter-namespace';

type RequestNotice =
  { kind: 'sent'; purpose: PrivacyLinkPurpose; email: string } | { kind: 'limited' | 'failed' };

export interface PrivacyRequestsProps {
  /** The manage link's token: it only asks, the mailed link acts. */
  token: string;
  /** The manage link itself was refused (expired or not ours): the page says so instead. */
  onLinkRefused: (outcome: 'expired' | 'invalid') => void;
}

/** What the answer to a request means for the person. */
function noticeOfError(error: unknown): RequestNotice | 'expired' | 'invalid' {
  if (statusOfError(error) === 429) return { kind: 'limited' };
  const outcome = outcomeOfError(error);
  return outcome === 'expired' || outcome === 'invalid' ? outcome : { kind: 'failed' };
}

/**
 * "Download my data" and "Erase my data". A manage link lives in mail that
 * can be forwarded, so neither acts here: each mails the address a link
 * that works once, for a day, and the page says where it went.
 */
export function PrivacyRequests({ token, onLinkRefused }: PrivacyRequestsProps) {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  const [requestLink, { isLoading }] = useRequestPrivacyLinkMutation();
  const [notice, setNotice] = useState<RequestNotice | null>(null);
  const ask = (purpose: PrivacyLinkPurpose) => {
    setNotice(null);
    requestLink({ token, purpose })
      .unwrap()
      .then(
        ({ email }) => setNotice({ kind: 'sent', purpose, email }),
        (error: unknown) => {
          const next = noticeOfError(error);
          if (next === 'expired' || next === 'invalid') onLinkRefused(next);
          else setNotice(next);
        },
      );
  };
  return (
    <Stack spacing={1} component="section" aria-labelledby="privacy-requests-title">
      <Typography variant="h6" component="h2" id="privacy-requests-title">
        {t('privacy.title')}
      </Typography>
      <Typography sx={{ color: 'text.secondary' }}>{t('privacy.description')}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <Button
          variant="outlined"
          startIcon={<DownloadIcon />}
          disabled={isLoading}
          onClick={() => ask('download')}
        >
          {t('privacy.download')}
        </Button>
        <Button
          variant="outlined"
          color="error"
          startIcon={<DeleteForeverOutlinedIcon />}
          disabled={isLoading}
          onClick={() => ask('erasure')}
        >
          {t('privacy.erase')}
        </Button>
      </Stack>
      {notice ? (
        <Alert severity={notice.kind === 'sent' ? 'success' : 'error'} role="status">
          {notice.kind === 'sent'
            ? t(`privacy.sent.${notice.purpose}`, { email: notice.email })
            : t(`privacy.${notice.kind}`)}
        </Alert>
      ) : null}
    </Stack>
  );
}
