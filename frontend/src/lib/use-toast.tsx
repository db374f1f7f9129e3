import { useSnackbar, type VariantType } from 'notistack';
import { useCallback } from 'react';
import { ToastMessage } from '../components/toast-message';

/** The spec's two toast variants; 'destructive' is notistack's error style. */
export type ToastVariant = 'default' | 'destructive' | 'success';

const VARIANTS: Record<ToastVariant, VariantType> = {
  default: 'default',
  destructive: 'error',
  success: 'success',
};

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

/** Title-plus-description toasts, the way every message in the spec is worded. */
export function useToast(): (options: ToastOptions) => void {
  const { enqueueSnackbar } = useSnackbar();
  return useCallback(
    ({ title, description, variant = 'default' }: ToastOptions) => {
      enqueueSnackbar(<ToastMessage title={title} description={description} />, {
        variant: VARIANTS[variant],
      });
    },
    [enqueueSnackbar],
  );
}
