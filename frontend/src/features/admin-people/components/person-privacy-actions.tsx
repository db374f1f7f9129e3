import type { ErasureDto } from '@agency/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState, type FormEvent } from 'react';
import { apiErrorMessage } from '../../../lib/api-errors';
import { defineNamespace, useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useDownloadPersonDataMutation,
  useErasePersonMutation,
  useErasureQuery,
} from '../api/person-privacy-api';
import en from '../locales/privacy.en.json';

/** The privacy actions' texts: their own namespace, beside the people screens'. */
export const PRIVACY_NAMESPACE = defineNamespace({
  name: 'admin-people-privacy',
  en,
  fr: () => import('../locales/privacy.fr.json'),
  ar: () => import('../locales/privacy.ar.json'),
});

/** How often the dashboard asks how an erasure stands while it runs. */
const ERASURE_POLL_MS = 1000;

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const ended = (erasure: ErasureDto | undefined) =>
  erasure?.state === 'done' || erasure?.state === 'failed';

/** Where an erasure stands, read again every second until it has ended. */
function ErasureProgress({ id }: { id: string }) {
  const { t } = useNamespace(PRIVACY_NAMESPACE);
  const [polling, setPolling] = useState(true);
  const { data } = useErasureQuery(id, { pollingInterval: polling ? ERASURE_POLL_MS : 0 });
  // Set while rendering the answer that ended it: the next render asks no more.
  if (polling && ended(data)) setPolling(false);
  if (!data) return null;
  const severity = data.state === 'failed' ? 'error' : data.state === 'done' ? 'success' : 'info';
  return (
    <Stack spacing={1}>
      <Alert severity={severity} role="status" aria-live="polite">
        {t(`state.${data.state}`, { done: data.stepsDone, total: data.stepsTotal })}
      </Alert>
      {!ended(data) && (
        <LinearProgress
          variant="determinate"
          value={data.stepsTotal > 0 ? (100 * data.stepsDone) / data.stepsTotal : 0}
          aria-label={t('progressLabel')}
        />
      )}
    </Stack>
  );
}

interface EraseDialogProps {
  email: string;
  open: boolean;
  onClose: () => void;
  onQueued: (erasure: ErasureDto) => void;
}

/** Asks the admin to type the address again before the erasure is queued. */
function EraseDialog({ email, open, onClose, onQueued }: EraseDialogProps) {
  const { t } = useNamespace(PRIVACY_NAMESPACE);
  const titleId = useId();
  const [typed, setTyped] = useState('');
  const [touched, setTouched] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [erase, { isLoading }] = useErasePersonMutation();
  const matches = sameAddress(typed, email);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!matches) return;
    setFailure(null);
    try {
      onQueued(await erase({ email, confirm: typed.trim() }).unwrap());
      setTyped('');
      setTouched(false);
    } catch (error: unknown) {
      setFailure(apiErrorMessage(error) ?? t('eraseFailed'));
    }
  };

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={titleId}>{t('dialog.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <DialogContentText>{t('dialog.body', { email })}</DialogContentText>
            {failure && <Alert severity="error">{failure}</Alert>}
            <TextField
              label={t('dialog.confirmLabel')}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              onBlur={() => setTouched(true)}
              error={touched && !matches}
              helperText={touched && !matches ? t('dialog.mismatch', { email }) : ' '}
              autoComplete="off"
              slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
              required
              fullWidth
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('dialog.cancel')}</Button>
          <Button type="submit" color="error" variant="contained" disabled={isLoading}>
            {t('dialog.submit')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/**
 * A person's privacy actions on their page: download everything held about
 * the address as a JSON file, and erase it (a confirmation that asks for the
 * address, then the job's progress until it ends).
 */
export function PersonPrivacyActions({ email }: { email: string }) {
  const { t } = useNamespace(PRIVACY_NAMESPACE);
  const headingId = useId();
  const toast = useToast();
  const [download, { isLoading: downloading }] = useDownloadPersonDataMutation();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [erasureId, setErasureId] = useState<string | null>(null);

  const runDownload = async () => {
    try {
      await download(email).unwrap();
    } catch (error: unknown) {
      toast({
        title: t('downloadFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };

  return (
    <Stack component="section" aria-labelledby={headingId} spacing={2}>
      <Typography id={headingId} variant="h6" component="h2">
        {t('title')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <Button variant="outlined" onClick={() => void runDownload()} disabled={downloading}>
          {t('download')}
        </Button>
        <Button variant="contained" color="error" onClick={() => setDialogOpen(true)}>
          {t('erase')}
        </Button>
      </Stack>
      {erasureId && <ErasureProgress id={erasureId} />}
      <EraseDialog
        email={email}
        open={dialogOpen}
        onClose={() => setDialogOpen(false)}
        onQueued={(erasure) => {
          setErasureId(erasure.id);
          setDialogOpen(false);
        }}
      />
    </Stack>
  );
}
