import CloseIcon from '@mui/icons-material/Close';
import IconButton from '@mui/material/IconButton';
import { closeSnackbar, SnackbarProvider, type SnackbarKey } from 'notistack';
import { useTranslation } from 'react-i18next';

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

/** Where toasts appear; lib/use-toast.tsx sends them here through notistack. */
export function Toaster() {
  return (
    <SnackbarProvider
      maxSnack={3}
      autoHideDuration={6000}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      action={(id) => <CloseToastButton id={id} />}
    />
  );
}
