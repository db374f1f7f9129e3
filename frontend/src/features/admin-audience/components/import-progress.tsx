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
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { StatusChip } from '../../../components/admin/status-chip';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';
import { useImportCommands } from './use-import-commands';

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

/** The file, the list it goes into, and the import's status. */
function ProgressHeading({ progress }: { progress: ImportDto }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const { status } = progress;
  return (
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
  );
}

/** The share of rows read, as a bar and as text read out when it changes. */
function ProgressBar({ progress }: { progress: ImportDto }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  const { counts, status } = progress;
  const percent =
    progress.rowCount > 0 ? Math.min(100, (counts.read / progress.rowCount) * 100) : 0;
  const progressText = t('import.progressOf', {
    read: format.number(counts.read),
    total: format.number(progress.rowCount),
  });
  return (
    <div>
      <LinearProgress
        variant={status === 'queued' ? 'indeterminate' : 'determinate'}
        value={status === 'done' ? 100 : percent}
        aria-label={t('import.progressLabel')}
        aria-valuetext={progressText}
        sx={{ height: 8, borderRadius: 4 }}
      />
      <Typography variant="body2" sx={{ mt: 1 }} aria-live="polite">
        {progressText}
      </Typography>
    </div>
  );
}

/** Each count under its name, then what they mean. */
function ImportCountList({ counts }: { counts: ImportCounts }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  return (
    <>
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
    </>
  );
}

/** How a finished import ended: done (saying when it changed nothing) or failed with its reason. */
function ImportOutcome({ progress }: { progress: ImportDto }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const { counts, status } = progress;
  return (
    <>
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
    </>
  );
}

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
  const commands = useImportCommands(progress);
  const { status } = progress;
  const ended = !(status === 'queued' || status === 'running');

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={2.5}>
        <ProgressHeading progress={progress} />
        <ProgressBar progress={progress} />
        <ImportCountList counts={progress.counts} />
        <ImportOutcome progress={progress} />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          {ended ? null : (
            <Button color="error" variant="outlined" onClick={() => commands.setAsking(true)}>
              {t('import.cancel')}
            </Button>
          )}
          {ended && progress.reportLines > 0 ? (
            <Button
              variant="outlined"
              startIcon={<DownloadIcon />}
              disabled={commands.downloading}
              onClick={() => void commands.downloadReport()}
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
        open={commands.asking}
        title={t('import.confirmCancel.title')}
        description={t('import.confirmCancel.description')}
        confirmLabel={t('import.confirmCancel.confirm')}
        destructive
        busy={commands.cancelling}
        onConfirm={() => void commands.confirmCancel()}
        onClose={() => commands.setAsking(false)}
      />
    </Paper>
  );
}
