import type { Breakpoint } from '@mui/material';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useId, type ReactNode } from 'react';
import { useNamespace } from '../../lib/translations';
import { ADMIN_COMMON_NAMESPACE } from './admin-common-namespace';
import { useIsMobile } from './use-is-mobile';

export interface ViewDialogProps {
  title: string;
  maxWidth?: Breakpoint;
  /** Buttons shown before Close (what may be done with the record). */
  actions?: ReactNode;
  onClose: () => void;
  children: ReactNode;
}

/** A record's read-only view over its list: full screen on a phone, closed by Close or Escape. */
export function ViewDialog({
  title,
  maxWidth = 'sm',
  actions,
  onClose,
  children,
}: ViewDialogProps) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const titleId = useId();
  const mobile = useIsMobile();
  return (
    <Dialog
      open
      onClose={onClose}
      aria-labelledby={titleId}
      fullWidth
      maxWidth={maxWidth}
      fullScreen={mobile}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent dividers>{children}</DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        {actions}
        <Button variant="contained" onClick={onClose}>
          {t('actions.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
