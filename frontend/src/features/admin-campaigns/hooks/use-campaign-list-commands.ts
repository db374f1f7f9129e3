import type { CampaignDto } from '@agency/contracts';
import { useCallback } from 'react';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useDeleteCampaignMutation,
  useDuplicateCampaignMutation,
  useSendCampaignMutation,
} from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import { useCampaignControl } from './use-campaign-control';
import { useCampaignPublication } from './use-campaign-publication';

/**
 * What the campaign list does to a campaign: send it, copy it, delete it, and
 * the sending controls, each saying in a toast how it went.
 */
export function useCampaignListCommands() {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const toast = useToast();
  const [sendCampaign, { isLoading: sendBusy }] = useSendCampaignMutation();
  const [deleteCampaign] = useDeleteCampaignMutation();
  const [duplicateCampaign, { isLoading: duplicating }] = useDuplicateCampaignMutation();
  const { run: runControl, busy: controlBusy } = useCampaignControl();
  const { togglePublication, publicationBusy } = useCampaignPublication();

  const send = async (campaign: CampaignDto) => {
    try {
      await sendCampaign(campaign.id).unwrap();
      toast({
        title: t('toasts.sent'),
        description: t('toasts.sentDescription'),
        variant: 'success',
      });
    } catch (error: unknown) {
      toast({
        title: t('toasts.sendFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };

  /** Resolves to the copy, or to null when the server refused it (said in a toast). */
  const duplicate = useCallback(
    async (campaign: CampaignDto): Promise<CampaignDto | null> => {
      try {
        const copy = await duplicateCampaign(campaign.id).unwrap();
        toast({
          title: t('toasts.duplicated', { name: copy.name }),
          description: t('toasts.duplicatedDescription'),
          variant: 'success',
        });
        return copy;
      } catch (error: unknown) {
        toast({
          title: t('toasts.duplicateFailed'),
          description: apiErrorMessage(error),
          variant: 'destructive',
        });
        return null;
      }
    },
    [duplicateCampaign, t, toast],
  );

  return {
    send,
    sendBusy,
    duplicate,
    duplicating,
    deleteCampaign,
    runControl,
    controlBusy,
    togglePublication,
    publicationBusy,
  };
}

export type CampaignListCommands = ReturnType<typeof useCampaignListCommands>;
