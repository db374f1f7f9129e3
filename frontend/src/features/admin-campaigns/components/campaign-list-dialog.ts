import type { CampaignDto } from '@agency/contracts';

/** The one dialog open over the campaign list, if any, and the campaign it is about. */
export type CampaignListDialog =
  | { kind: 'edit'; campaign?: CampaignDto }
  | { kind: 'send' | 'delete' | 'test' | 'schedule' | 'recipients'; campaign: CampaignDto }
  /** The controls that cannot be taken back, asked about first. */
  | { kind: 'confirm'; campaign: CampaignDto; control: 'cancel' | 'resend-failed' };
