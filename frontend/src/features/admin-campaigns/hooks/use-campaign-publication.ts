import type { CampaignDto } from '@agency/contracts';
import { useCallback } from 'react';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useSetCampaignPublicationMutation } from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';

/**
 * Puts a campaign on the public archive or takes it off, saying in a toast how
 * it went. The editor's switch does it for a draft; this, for a sent campaign.
 */
export function useCampaignPublication() {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const toast = useToast();
  const [setPublication, { isLoading: publicationBusy }] = useSetCampaignPublicationMutation();

  const togglePublication = useCallback(
    async (campaign: CampaignDto) => {
      const publishToArchive = !campaign.publishToArchive;
      try {
        await setPublication({ id: campaign.id, publishToArchive }).unwrap();
        toast({
          title: t(publishToArchive ? 'archiveAction.published' : 'archiveAction.unpublished'),
          variant: 'success',
        });
      } catch (error: unknown) {
        toast({
          title: t('archiveAction.failed'),
          description: apiErrorMessage(error),
          variant: 'destructive',
        });
      }
    },
    [setPublication, t, toast],
  );
  return { togglePublication, publicationBusy };
}
