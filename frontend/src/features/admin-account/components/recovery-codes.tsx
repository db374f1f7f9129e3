import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useNamespace } from '../../../lib/translations';
import { ACCOUNT_NAMESPACE } from '../account-namespace';

export interface RecoveryCodesProps {
  codes: readonly string[];
  onDone: () => void;
}

/** The ten recovery codes, shown once: they are stored only as hashes. */
export function RecoveryCodes({ codes, onDone }: RecoveryCodesProps) {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard
      ?.writeText(codes.join('\n'))
      .then(() => setCopied(true))
      // A browser that refuses the clipboard loses nothing: the codes stay on
      // screen to copy by hand, and the button does not claim they were copied.
      .catch(() => undefined);
  };
  return (
    <Stack spacing={2}>
      <Alert severity="warning">{t('twoFactor.codesWarning')}</Alert>
      <Box
        component="ol"
        aria-label={t('twoFactor.codesTitle')}
        sx={{
          m: 0,
          p: 2,
          pl: 5,
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' },
          gap: 0.5,
          fontFamily: 'monospace',
          fontSize: '1rem',
          bgcolor: 'action.hover',
          borderRadius: 1,
          direction: 'ltr',
        }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <Button variant="outlined" startIcon={<ContentCopyIcon />} onClick={copy}>
          {copied ? t('twoFactor.copied') : t('twoFactor.copy')}
        </Button>
        <Button variant="contained" onClick={onDone}>
          {t('twoFactor.codesSaved')}
        </Button>
      </Stack>
    </Stack>
  );
}
