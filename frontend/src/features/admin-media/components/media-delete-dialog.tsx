import type { MediaDto } from '@agency/contracts';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { MEDIA_NAMESPACE } from '../../../components/admin/media/media-namespace';
import { apiErrorMessage, errorStatusOf } from '../../../lib/api-errors';
import { useDeleteMediaMutation } from '../../../lib/media-api';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { MediaUseLinks } from './media-usage';

export interface MediaDeleteDialogProps {
  item: MediaDto;
  onClose: () => void;
}

/**
 * Asks before deleting an image. When campaigns or templates show it, the
 * dialog names them and warns that their mails will show a broken image;
 * only that confirmation sends `force`. Should the API find a use the list
 * did not know of yet (409), its answer is shown and the next confirmation
 * forces.
 */
export function MediaDeleteDialog({ item, onClose }: MediaDeleteDialogProps) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const toast = useToast();
  const [deleteMedia, { isLoading }] = useDeleteMediaMutation();
  const [conflict, setConflict] = useState<string | null>(null);
  const inUse = item.usedBy.length > 0 || conflict !== null;

  const confirm = async () => {
    try {
      await deleteMedia({ id: item.id, force: inUse }).unwrap();
      toast({ title: t('deleted'), description: item.name, variant: 'success' });
      onClose();
    } catch (error: unknown) {
      if (errorStatusOf(error) === 409 && !inUse) {
        setConflict(apiErrorMessage(error) ?? t('deleteInUse'));
        return;
      }
      toast({
        title: t('deleteFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };

  return (
    <ConfirmDialog
      open
      title={t('deleteTitle', { name: item.name })}
      description={
        <Stack spacing={1}>
          {item.usedBy.length > 0 ? (
            <>
              <Typography>{t('deleteInUse')}</Typography>
              <Typography component="div">
                <MediaUseLinks uses={item.usedBy} />
              </Typography>
            </>
          ) : null}
          {conflict ? <Typography>{conflict}</Typography> : null}
          {inUse ? (
            <Typography sx={{ color: 'error.main', fontWeight: 500 }}>
              {t('deleteInUseWarning')}
            </Typography>
          ) : null}
          <Typography>{t('deleteDescription')}</Typography>
        </Stack>
      }
      confirmLabel={inUse ? t('deleteAnyway') : t('delete')}
      destructive
      busy={isLoading}
      onConfirm={() => void confirm()}
      onClose={onClose}
    />
  );
}
