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

function show({ title, description, variant = 'default' }: ToastOptions): void {
  enqueueSnackbar(<ToastMessage title={title} description={description} />, {
    variant: VARIANTS[variant],
  });
}

/** What was said before the Toaster had loaded: shown as soon as it mounts. */
const pending: ToastOptions[] = [];

/**
 * Shows the toasts said before the Toaster mounted (app/toaster.tsx calls it
 * once mounted). A notice can come that early: a stored session that has
 * expired is refused by the first call the page makes.
 */
export function flushPendingToasts(): void {
  for (const options of pending.splice(0)) show(options);
}

/**
 * Title-plus-description toasts, the way every message in the spec is worded.
 * They go to the Toaster that app/providers.tsx mounts (loaded after the page).
 */
export function useToast(): (options: ToastOptions) => void {
  return useCallback((options: ToastOptions) => {
    // notistack sets its global sender when the Toaster mounts, moments after the first paint.
    if (typeof enqueueSnackbar !== 'function') {
      pending.push(options);
      return;
    }
    show(options);
  }, []);
}
