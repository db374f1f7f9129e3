import type { CampaignControl, CampaignDto } from '@agency/contracts';
import { useCallback } from 'react';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useControlCampaignMutation } from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';

/**
 * Pause, resume, cancel or resend to the failed, each saying how it went in
 * a toast (the server's reason when it refused). Resolves true on success.
 */
export function useCampaignControl() {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const toast = useToast();
  const [control, { isLoading }] = useControlCampaignMutation();

  const run = useCallback(
    async (campaign: CampaignDto, action: CampaignControl): Promise<boolean> => {
      try {
        await control({ id: campaign.id, control: action }).unwrap();
        toast({ title: t(`controls.${action}.done`, { name: campaign.name }), variant: 'success' });
        return true;
      } catch (error: unknown) {
        toast({
          title: t(`controls.${action}.failed`, { name: campaign.name }),
          description: apiErrorMessage(error) ?? t('toasts.tryAgain'),
          variant: 'destructive',
        });
        return false;
      }
    },
    [control, t, toast],
  );
  return { run, busy: isLoading };
}
