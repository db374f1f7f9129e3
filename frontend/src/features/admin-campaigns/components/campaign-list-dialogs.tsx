import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { DeleteConfirmDialog } from '../../../components/admin/delete-confirm-dialog';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import type { CampaignListCommands } from '../hooks/use-campaign-list-commands';
import { CampaignDialog } from './campaign-dialog';
import type { CampaignListDialog } from './campaign-list-dialog';
import { CampaignRecipientsDialog } from './campaign-recipients-dialog';
import { ScheduleDialogLoader } from './schedule-dialog';
import { SendConfirmDialog } from './send-confirm-dialog';
import { TestSendDialog } from './test-send-dialog';

export interface CampaignListDialogsProps {
  dialog: CampaignListDialog | null;
  commands: CampaignListCommands;
  onClose: () => void;
}

/** Asks before cancelling a send or resending to the failed: neither can be taken back. */
function ControlConfirmDialog({ dialog, commands, onClose }: CampaignListDialogsProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const confirming = dialog?.kind === 'confirm' ? dialog : null;

  const confirmControl = async () => {
    if (!confirming) return;
    await commands.runControl(confirming.campaign, confirming.control);
    onClose();
  };

  return (
    <ConfirmDialog
      open={Boolean(confirming)}
      title={
        confirming
          ? t(`controls.${confirming.control}.confirmTitle`, { name: confirming.campaign.name })
          : ''
      }
      description={
        confirming
          ? t(`controls.${confirming.control}.confirmDescription`, {
              failed: format.number(confirming.campaign.failedCount),
            })
          : ''
      }
      confirmLabel={confirming ? t(`controls.${confirming.control}.confirm`) : ''}
      destructive={confirming?.control === 'cancel'}
      busy={commands.controlBusy}
      onConfirm={() => void confirmControl()}
      onClose={onClose}
    />
  );
}

/** The dialog open over the campaign list: the editor, a send, a deletion, a test, a schedule, the recipients or a control. */
export function CampaignListDialogs({ dialog, commands, onClose }: CampaignListDialogsProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);

  const confirmSend = async () => {
    if (dialog?.kind !== 'send') return;
    await commands.send(dialog.campaign);
    onClose();
  };

  return (
    <>
      {dialog?.kind === 'edit' ? (
        <CampaignDialog campaign={dialog.campaign} onClose={onClose} />
      ) : null}
      {dialog?.kind === 'send' ? (
        <SendConfirmDialog
          campaign={dialog.campaign}
          busy={commands.sendBusy}
          onConfirm={() => void confirmSend()}
          onClose={onClose}
        />
      ) : null}
      <DeleteConfirmDialog
        item={dialog?.kind === 'delete' ? dialog.campaign : null}
        title={(item) => t('confirmDelete.title', { name: item.name })}
        description={t('confirmDelete.description')}
        confirmLabel={t('confirmDelete.confirm')}
        remove={commands.deleteCampaign}
        deleted={t('toasts.deleted')}
        failed={{ title: t('toasts.deleteFailed') }}
        onClose={onClose}
      />
      {dialog?.kind === 'test' ? (
        <TestSendDialog campaign={dialog.campaign} onClose={onClose} />
      ) : null}
      {dialog?.kind === 'schedule' ? (
        <ScheduleDialogLoader campaign={dialog.campaign} onClose={onClose} />
      ) : null}
      {dialog?.kind === 'recipients' ? (
        <CampaignRecipientsDialog campaign={dialog.campaign} onClose={onClose} />
      ) : null}
      <ControlConfirmDialog dialog={dialog} commands={commands} onClose={onClose} />
    </>
  );
}
