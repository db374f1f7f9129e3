import type { CampaignDto, CampaignStatus } from '@agency/contracts';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../../lib/api';
import { useAppDispatch } from '../../../lib/hooks';
import { useCampaignProgressQuery } from '../api/campaigns-api';

/** How often a campaign being sent is read again (tests shorten it). */
export const progressPolling = { intervalMs: 2000 };

/** A send that is under way: its progress is live until it leaves these. */
const IN_PROGRESS: readonly CampaignStatus[] = ['queued', 'sending', 'paused'];

export function isInProgress(status: CampaignStatus): boolean {
  return IN_PROGRESS.includes(status);
}

export interface CampaignProgress {
  campaign: CampaignDto;
  /** Recipients settled (sent or failed) per second between the last two readings. */
  ratePerSecond: number | null;
  /** The send ended while this view watched it (show it once). */
  justFinished: boolean;
}

/**
 * The live state of a campaign being sent: GET /api/admin/campaigns/{id}
 * every few seconds while it is queued, sending or paused, the rate
 * computed from successive readings. When it ends, the lists and figures
 * that show it are refreshed.
 */
export function useCampaignProgress(listed: CampaignDto): CampaignProgress {
  const dispatch = useAppDispatch();
  const watching = isInProgress(listed.status);
  const { data, fulfilledTimeStamp } = useCampaignProgressQuery(listed.id, {
    skip: !watching,
    pollingInterval: watching ? progressPolling.intervalMs : 0,
    refetchOnMountOrArgChange: true,
  });
  const campaign = watching && data ? data : listed;
  const previous = useRef<{ settled: number; at: number } | null>(null);
  const [ratePerSecond, setRate] = useState<number | null>(null);

  useEffect(() => {
    if (!data || !fulfilledTimeStamp) return;
    const settled = data.sentCount + data.failedCount;
    const before = previous.current;
    if (before && fulfilledTimeStamp > before.at) {
      setRate(Math.max(0, (settled - before.settled) / ((fulfilledTimeStamp - before.at) / 1000)));
    }
    previous.current = { settled, at: fulfilledTimeStamp };
  }, [data, fulfilledTimeStamp]);

  // The listed row still says "sending" until the list is read again.
  const justFinished = watching && data !== undefined && !isInProgress(data.status);
  useEffect(() => {
    if (justFinished) dispatch(api.util.invalidateTags(['Campaigns', 'Stats']));
  }, [justFinished, dispatch]);

  return { campaign, ratePerSecond, justFinished };
}
