import CloseIcon from '@mui/icons-material/Close';
import IconButton from '@mui/material/IconButton';
import { styled } from '@mui/material/styles';
import {
  closeSnackbar,
  MaterialDesignContent,
  SnackbarProvider,
  type SnackbarKey,
} from 'notistack';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { attachToaster } from '../lib/use-toast';

function CloseToastButton({ id }: { id: SnackbarKey }) {
  const { t } = useTranslation();
  return (
    <IconButton
      size="small"
      color="inherit"
      aria-label={t('common.close')}
      onClick={() => closeSnackbar(id)}
    >
      <CloseIcon fontSize="small" />
    </IconButton>
  );
}

/**
 * notistack's own colours put white text on #43a047 for a success (3.3:1),
 * under WCAG AA's 4.5:1. The product's two coloured variants (use-toast.tsx)
 * take the theme's darker shades: success.dark and error.dark.
 */
const ReadableToast = styled(MaterialDesignContent)(({ theme }) => ({
  '&.notistack-MuiContent-success': { backgroundColor: theme.palette.success.dark },
  '&.notistack-MuiContent-error': { backgroundColor: theme.palette.error.dark },
}));

const TOAST_VARIANTS = { success: ReadableToast, error: ReadableToast };

/** Where toasts appear; lib/use-toast.tsx sends them here through notistack. */
export function Toaster() {
  // Effects run children first: the provider below is mounted by now.
  useEffect(() => attachToaster(), []);
  return (
    <SnackbarProvider
      maxSnack={3}
      autoHideDuration={6000}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      action={(id) => <CloseToastButton id={id} />}
      Components={TOAST_VARIANTS}
    />
  );
}
