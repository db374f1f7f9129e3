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

/** What was said while no Toaster was mounted: shown as soon as one mounts. */
const pending: ToastOptions[] = [];

/**
 * Whether a Toaster is mounted. notistack's global sender is set when its
 * provider is constructed, which can be a while before it is mounted (the
 * Toaster loads lazily and renders concurrently) and stays set after it
 * unmounts: a toast sent to it then is dropped. Only a mounted one shows it.
 */
let toasterMounted = false;

/**
 * Called by app/toaster.tsx once mounted: shows what was said before, and
 * keeps later toasts until the next mount once the returned detach has run.
 * A notice can come that early: a stored session that has expired is
 * refused by the first call the page makes.
 */
export function attachToaster(): () => void {
  toasterMounted = true;
  for (const options of pending.splice(0)) show(options);
  return () => {
    toasterMounted = false;
  };
}

/**
 * Title-plus-description toasts, the way every message in the spec is worded.
 * They go to the Toaster that app/providers.tsx mounts (loaded after the page).
 */
export function useToast(): (options: ToastOptions) => void {
  return useCallback((options: ToastOptions) => {
    if (!toasterMounted) {
      pending.push(options);
      return;
    }
    show(options);
  }, []);
}
