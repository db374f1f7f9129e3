import { MEDIA_DELETE_BLOCKING_STATUSES, type MediaDto, type MediaUseDto } from '@agency/contracts';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { MEDIA_NAMESPACE } from '../../../components/admin/media/media-namespace';
import { apiErrorMessage, errorStatusOf } from '../../../lib/api-errors';
import { useDeleteMediaMutation, useLazyMediaItemQuery } from '../../../lib/media-api';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { MediaUseLinks } from './media-usage';

export interface MediaDeleteDialogProps {
  item: MediaDto;
  onClose: () => void;
}

/** The campaigns whose mails still to be sent show the image: the API refuses the delete then. */
const owedUsesOf = (uses: readonly MediaUseDto[]) =>
  uses.filter((use) => use.status && MEDIA_DELETE_BLOCKING_STATUSES.includes(use.status));

/** Why the image cannot go: the campaigns still to be sent, each a link, in the admin's language. */
function OwedRefusal({ uses, announce }: { uses: readonly MediaUseDto[]; announce: boolean }) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  return (
    <Stack spacing={1} role={announce ? 'alert' : undefined}>
      <Typography sx={{ color: 'error.main', fontWeight: 500 }}>{t('deleteOwed')}</Typography>
      <Typography component="div">
        <MediaUseLinks uses={uses} />
      </Typography>
      <Typography>{t('deleteOwedHint')}</Typography>
    </Stack>
  );
}

/** What the dialog says of an image in use that may still be deleted (forced). */
function InUseWarning({
  uses,
  conflict,
}: {
  uses: readonly MediaUseDto[];
  conflict: string | null;
}) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  return (
    <>
      {uses.length > 0 ? (
        <>
          <Typography>{t('deleteInUse')}</Typography>
          <Typography component="div">
            <MediaUseLinks uses={uses} />
          </Typography>
        </>
      ) : null}
      {conflict ? <Typography role="alert">{conflict}</Typography> : null}
      <Typography sx={{ color: 'error.main', fontWeight: 500 }}>
        {t('deleteInUseWarning')}
      </Typography>
    </>
  );
}

/**
 * Asks before deleting an image. When campaigns or templates show it, the
 * dialog names them and warns that their mails will show a broken image;
 * only that confirmation sends `force`. While a campaign showing it is still
 * to be sent, the API refuses even that, so the dialog names those campaigns
 * and offers no delete. Should the API find a use the list did not know of
 * yet (409), the image's uses are read again and shown the same way.
 */
export function MediaDeleteDialog({ item, onClose }: MediaDeleteDialogProps) {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const toast = useToast();
  const [deleteMedia, { isLoading }] = useDeleteMediaMutation();
  const [loadItem, { isFetching }] = useLazyMediaItemQuery();
  const [uses, setUses] = useState(item.usedBy);
  const [conflict, setConflict] = useState<string | null>(null);
  const [refused, setRefused] = useState(false);
  const owed = owedUsesOf(uses);
  const inUse = uses.length > 0 || conflict !== null;

  /** The API knows of uses the list did not show: read them, or at least show its answer. */
  const showConflict = async (error: unknown) => {
    const latest = await loadItem(item.id)
      .unwrap()
      .catch(() => null);
    if (latest) setUses(latest.usedBy);
    setRefused(true);
    if (!latest || latest.usedBy.length === 0) {
      setConflict(apiErrorMessage(error) ?? t('deleteInUse'));
    }
  };

  const confirm = async () => {
    try {
      await deleteMedia({ id: item.id, force: inUse }).unwrap();
      toast({ title: t('deleted'), description: item.name, variant: 'success' });
      onClose();
    } catch (error: unknown) {
      if (errorStatusOf(error) === 409) {
        await showConflict(error);
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
          {owed.length > 0 ? (
            <OwedRefusal uses={owed} announce={refused} />
          ) : (
            <>
              {inUse ? <InUseWarning uses={uses} conflict={conflict} /> : null}
              <Typography>{t('deleteDescription')}</Typography>
            </>
          )}
        </Stack>
      }
      confirmLabel={inUse ? t('deleteAnyway') : t('delete')}
      destructive
      busy={isLoading || isFetching}
      confirmDisabled={owed.length > 0}
      onConfirm={() => void confirm()}
      onClose={onClose}
    />
  );
}
