import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutlineOutlined';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useErrorText } from '../../../lib/api-errors';
import type { UploadEntry } from '../../../lib/media-upload';
import { useNamespace } from '../../../lib/translations';
import { MEDIA_NAMESPACE } from './media-namespace';

function UploadRow({ entry }: { entry: UploadEntry }) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const errorText = useErrorText();
  const { state, fileName } = entry;
  if (state.status === 'uploading') {
    const label = t('upload.uploading', { name: fileName });
    return (
      <Stack spacing={0.5} sx={{ width: '100%' }}>
        <Typography variant="body2">{label}</Typography>
        <LinearProgress
          variant="determinate"
          value={Math.round(state.progress * 100)}
          aria-label={label}
        />
      </Stack>
    );
  }
  if (state.status === 'done') {
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        {state.duplicate ? (
          <InfoOutlinedIcon color="info" fontSize="small" aria-hidden />
        ) : (
          <CheckCircleOutlineIcon color="success" fontSize="small" aria-hidden />
        )}
        <Typography variant="body2">
          {state.duplicate
            ? `${fileName}: ${t('upload.duplicate')}`
            : t('upload.done', { name: fileName })}
        </Typography>
      </Stack>
    );
  }
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      <ErrorOutlineIcon color="error" fontSize="small" aria-hidden sx={{ mt: 0.25 }} />
      <Typography variant="body2" sx={{ color: 'error.main' }}>
        {t('upload.failed', { name: fileName })}
        {': '}
        {errorText(state.refusal) ?? t('upload.networkError')}
      </Typography>
    </Stack>
  );
}

/** Each file's upload: its progress while it goes, then whether it was added and why not. */
export function UploadProgressList({ entries }: { entries: readonly UploadEntry[] }) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  if (entries.length === 0) return null;
  return (
    <List aria-label={t('upload.progressLabel')} aria-live="polite" dense disablePadding>
      {entries.map((entry) => (
        <ListItem key={entry.key} disableGutters>
          <UploadRow entry={entry} />
        </ListItem>
      ))}
    </List>
  );
}
