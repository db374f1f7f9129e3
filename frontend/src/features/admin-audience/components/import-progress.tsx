import {
  importChangedNothing,
  type ImportCounts,
  type ImportDto,
  type ImportStatus,
} from '@agency/contracts';
import DownloadIcon from '@mui/icons-material/Download';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { StatusChip } from '../../../components/admin/status-chip';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useCancelImportMutation, useDownloadImportReportMutation } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

const COUNT_NAMES: readonly (keyof ImportCounts)[] = [
  'read',
  'created',
  'updated',
  'unchanged',
  'skipped',
  'invalid',
];

export const IMPORT_STATUS_COLORS: Record<
  ImportStatus,
  'default' | 'info' | 'success' | 'warning' | 'error'
> = {
  uploaded: 'default',
  queued: 'info',
  running: 'info',
  done: 'success',
  cancelled: 'warning',
  failed: 'error',
};

/** Step three: the import's live counts, its cancel, and once it ends its error report. */
export function ImportProgress({
  progress,
  onAnother,
}: {
  progress: ImportDto;
  onAnother: () => void;
}) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const [cancel, { isLoading: cancelling }] = useCancelImportMutation();
  const [download, { isLoading: downloading }] = useDownloadImportReportMutation();
  const { counts, status } = progress;
  const active = status === 'queued' || status === 'running';
  const ended = !active;
  const percent =
    progress.rowCount > 0 ? Math.min(100, (counts.read / progress.rowCount) * 100) : 0;
  const progressText = t('import.progressOf', {
    read: format.number(counts.read),
    total: format.number(progress.rowCount),
  });

  const confirmCancel = async () => {
    try {
      await cancel(progress.id).unwrap();
      setAsking(false);
    } catch (error: unknown) {
      toast({
        title: t('import.cancelFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };
  const downloadReport = async () => {
    try {
      await download(progress.id).unwrap();
    } catch (error: unknown) {
      toast({
        title: t('toasts.errorTitle'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={2.5}>
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={1}
          sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}
        >
          <Typography variant="h6" component="h2" sx={{ wordBreak: 'break-word' }}>
            {t('import.into', { file: progress.fileName, list: progress.list?.name ?? '' })}
          </Typography>
          <div>
            <StatusChip label={t(`import.status.${status}`)} color={IMPORT_STATUS_COLORS[status]} />
          </div>
        </Stack>
        <div>
          <LinearProgress
            variant={status === 'queued' ? 'indeterminate' : 'determinate'}
            value={ended && status === 'done' ? 100 : percent}
            aria-label={t('import.progressLabel')}
            aria-valuetext={progressText}
            sx={{ height: 8, borderRadius: 4 }}
          />
          <Typography variant="body2" sx={{ mt: 1 }} aria-live="polite">
            {progressText}
          </Typography>
        </div>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: 'grid',
            gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(6, 1fr)' },
            gap: 2,
          }}
        >
          {COUNT_NAMES.map((name) => (
            <div key={name}>
              <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
                {t(`import.counts.${name}`)}
              </Typography>
              <Typography component="dd" variant="h6" sx={{ m: 0 }} data-count={name}>
                {format.number(counts[name])}
              </Typography>
            </div>
          ))}
        </Box>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('import.countsHint')}
        </Typography>
        {status === 'done' ? (
          <Alert severity={importChangedNothing(counts) ? 'info' : 'success'}>
            <AlertTitle>{t('import.doneTitle')}</AlertTitle>
            {importChangedNothing(counts) ? t('import.nothingChanged') : null}
          </Alert>
        ) : null}
        {status === 'failed' ? (
          <Alert severity="error">
            <AlertTitle>{t('import.failedTitle')}</AlertTitle>
            {progress.error}
          </Alert>
        ) : null}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          {active ? (
            <Button color="error" variant="outlined" onClick={() => setAsking(true)}>
              {t('import.cancel')}
            </Button>
          ) : null}
          {ended && progress.reportLines > 0 ? (
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              disabled={downloading}
              onClick={() => void downloadReport()}
            >
              {t('import.report', {
                count: progress.reportLines,
                formatted: format.number(progress.reportLines),
              })}
            </Button>
          ) : null}
          {ended ? (
            <Button variant="contained" onClick={onAnother}>
              {t('import.another')}
            </Button>
          ) : null}
        </Stack>
        {ended && status === 'done' && progress.reportLines === 0 ? (
          <Typography variant="body2">{t('import.noReport')}</Typography>
        ) : null}
      </Stack>
      <ConfirmDialog
        open={asking}
        title={t('import.confirmCancel.title')}
        description={t('import.confirmCancel.description')}
        confirmLabel={t('import.confirmCancel.confirm')}
        destructive
        busy={cancelling}
        onConfirm={() => void confirmCancel()}
        onClose={() => setAsking(false)}
      />
    </Paper>
  );
}
