import { enqueueSnackbar, type VariantType } from 'notistack';
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

/**
 * Title-plus-description toasts, the way every message in the spec is worded.
 * They go to the Toaster that app/providers.tsx mounts (loaded after the page).
 */
export function useToast(): (options: ToastOptions) => void {
  return useCallback(({ title, description, variant = 'default' }: ToastOptions) => {
    // notistack sets its global sender when the Toaster mounts, moments after the first paint.
    if (typeof enqueueSnackbar !== 'function') {
      console.warn(`Toast not shown (the toaster is still loading): ${title}`);
      return;
    }
    enqueueSnackbar(<ToastMessage title={title} description={description} />, {
      variant: VARIANTS[variant],
    });
  }, []);
}
