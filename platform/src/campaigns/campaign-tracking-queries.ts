import { isValidObjectId } from 'mongoose';
import type { TrackingMode } from '@agency/contracts';
import { CampaignModel } from './campaign.model';

/**
 * What the public pixel and redirect need of a campaign: its link table (a
 * click's target is read here, never from the token), its switches and mode,
 * and whether its tracking key still exists (once destroyed, nothing more is
 * recorded). The key itself is not handed out: the endpoints never need it.
 */
export interface CampaignTrackingTable {
  links: string[];
  mode: TrackingMode | null;
  opens: boolean;
  clicks: boolean;
  hasKey: boolean;
}

/** One read by `_id` of the tracking subdocument only; null when there is no such campaign. */
export async function findCampaignTrackingTable(id: string): Promise<CampaignTrackingTable | null> {
  if (!isValidObjectId(id)) return null;
  const campaign = await CampaignModel.findById(id, { tracking: 1 }).lean();
  if (!campaign) return null;
  const tracking = campaign.tracking;
  return {
    links: [...(tracking?.links ?? [])],
    mode: (tracking?.mode ?? null) as TrackingMode | null,
    opens: tracking?.opens ?? true,
    clicks: tracking?.clicks ?? true,
    hasKey: typeof tracking?.key === 'string' && tracking.key.length > 0,
  };
}
