import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useId, useState } from 'react';
import { useNamespace } from '../../../lib/translations';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';

/** What a link or a button may point at: the web, mail, or the unsubscribe link. */
const LINK_TARGET = /^(https?:\/\/\S+|mailto:\S+|\{\{\s*unsubscribeUrl\s*\}\})$/i;

/** What the toolbar inserts through a dialog: a link, an image (the image picker) or a button. */
export type InsertKind = 'link' | 'image' | 'button';

export interface InsertDialogProps {
  kind: Exclude<InsertKind, 'image'>;
  initialText: string;
  onInsert: (url: string, text: string) => void;
  onClose: () => void;
}

/** Asks for a link's or a button's address (and its text). */
export function InsertDialog({ kind, initialText, onInsert, onClose }: InsertDialogProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const [url, setUrl] = useState('');
  const [text, setText] = useState(initialText);
  const [tried, setTried] = useState(false);
  const pattern = LINK_TARGET;
  const urlError = tried && !pattern.test(url.trim());
  const textError = tried && kind === 'button' && !text.trim();
  const titleId = useId();

  const submit = () => {
    setTried(true);
    if (!pattern.test(url.trim()) || (kind === 'button' && !text.trim())) return;
    onInsert(url.trim(), text.trim());
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="xs">
      <DialogTitle id={titleId}>{t(`editor.insert.${kind}.title`)}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t(`editor.insert.${kind}.url`)}
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            error={urlError}
            helperText={
              urlError ? t(`editor.insert.${kind}.urlInvalid`) : t(`editor.insert.${kind}.urlHint`)
            }
            autoFocus
            required
            slotProps={{ htmlInput: { dir: 'ltr' } }}
          />
          <TextField
            label={t(`editor.insert.${kind}.text`)}
            value={text}
            onChange={(event) => setText(event.target.value)}
            error={textError}
            helperText={textError ? t('editor.insert.button.textRequired') : undefined}
            required={kind === 'button'}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('editor.insert.cancel')}</Button>
        <Button variant="contained" onClick={submit}>
          {t('editor.insert.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
