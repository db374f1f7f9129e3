import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, type FormEvent, type ReactNode } from 'react';
import { useNamespace } from '../../lib/translations';
import { ADMIN_COMMON_NAMESPACE } from './admin-common-namespace';
import { useIsMobile } from './use-is-mobile';

export interface FormDialogProps {
  open: boolean;
  title: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onClose: () => void;
  children: ReactNode;
  /** Wider for a form with an editor and its preview side by side. */
  maxWidth?: 'sm' | 'md' | 'lg' | 'xl';
}

/** The Add/Edit modals: a form in a dialog, full screen on a phone. */
export function FormDialog({
  open,
  title,
  submitLabel,
  busy,
  onSubmit,
  onClose,
  children,
  maxWidth = 'sm',
}: FormDialogProps) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const titleId = useId();
  const mobile = useIsMobile();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={maxWidth}
      fullScreen={mobile}
    >
      <form noValidate onSubmit={onSubmit}>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent dividers>{children}</DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" variant="contained" disabled={busy}>
            {busy ? t('actions.saving') : submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
