import { useState } from 'react';
import { apiErrorMessage } from '../../lib/api-errors';
import { useToast } from '../../lib/use-toast';
import { ConfirmDialog } from './confirm-dialog';

export interface DeleteConfirmDialogProps<Item extends { id: string }> {
  /** The record to delete once confirmed; null while nothing is asked. */
  item: Item | null;
  title: (item: Item) => string;
  description: string;
  confirmLabel: string;
  /** The delete mutation's trigger (RTK Query). */
  remove: (id: string) => { unwrap: () => Promise<unknown> };
  /** The success toast's title. */
  deleted: string;
  /** The error toast: its title, and the description when the API gives no reason. */
  failed: { title: string; fallback?: string };
  onClose: () => void;
}

/**
 * Asks before deleting a record, deletes it through the API, and says how
 * it went: the dialog closes on success and stays open (with the API's
 * reason in a toast) on failure.
 */
export function DeleteConfirmDialog<Item extends { id: string }>({
  item,
  title,
  description,
  confirmLabel,
  remove,
  deleted,
  failed,
  onClose,
}: DeleteConfirmDialogProps<Item>) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    if (!item) return;
    setBusy(true);
    try {
      await remove(item.id).unwrap();
      toast({ title: deleted, variant: 'success' });
      onClose();
    } catch (error: unknown) {
      toast({
        title: failed.title,
        description: apiErrorMessage(error) ?? failed.fallback,
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <ConfirmDialog
      open={Boolean(item)}
      title={item ? title(item) : ''}
      description={description}
      confirmLabel={confirmLabel}
      destructive
      busy={busy}
      onConfirm={() => void confirm()}
      onClose={onClose}
    />
  );
}
