import { IMPORT_MAX_BYTES, isApiErrorBody } from '@agency/contracts';
import UploadFileIcon from '@mui/icons-material/UploadFile';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState, type ChangeEvent } from 'react';
import { useNamespace } from '../../../lib/translations';
import { useUploadImportMutation } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

/** The API's reason for refusing a file, and its detail when it says more. */
function refusalOf(error: unknown): string[] {
  const body = (error as { data?: unknown }).data;
  if (!isApiErrorBody(body)) return [];
  const detail = body.error.fields?.file;
  return [body.error.message, typeof detail === 'string' ? detail : '']
    .filter(Boolean)
    .filter((text, index, all) => all.indexOf(text) === index);
}

/** Step one: a CSV file, checked by the API (size, encoding, an e-mail column) as it arrives. */
export function ImportUpload({ onUploaded }: { onUploaded: (id: string) => void }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const [upload, { isLoading }] = useUploadImportMutation();
  const [file, setFile] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string[] | null>(null);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    // The same file may be chosen again after a fix.
    event.target.value = '';
    if (!chosen) return;
    setFile(chosen.name);
    setRefusal(null);
    if (chosen.size > IMPORT_MAX_BYTES) {
      setRefusal([t('import.tooLarge', { file: chosen.name })]);
      return;
    }
    try {
      const uploaded = await upload(chosen).unwrap();
      onUploaded(uploaded.id);
    } catch (error: unknown) {
      const reasons = refusalOf(error);
      setRefusal(reasons.length > 0 ? reasons : [t('import.uploadFailed')]);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {t('import.heading')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('import.hint')}
        </Typography>
        <div>
          <Button
            component="label"
            variant="contained"
            startIcon={<UploadFileIcon />}
            disabled={isLoading}
          >
            {t('import.choose')}
            <input
              type="file"
              accept=".csv,text/csv"
              hidden
              onChange={(event) => void choose(event)}
            />
          </Button>
        </div>
        {isLoading && file ? (
          <Stack spacing={1} role="status">
            <Typography variant="body2">{t('import.uploading', { file })}</Typography>
            <LinearProgress aria-label={t('import.uploading', { file })} />
          </Stack>
        ) : null}
        {refusal ? (
          <Alert severity="error">
            <AlertTitle>{t('import.uploadFailed')}</AlertTitle>
            {refusal.map((text) => (
              <div key={text}>{text}</div>
            ))}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
