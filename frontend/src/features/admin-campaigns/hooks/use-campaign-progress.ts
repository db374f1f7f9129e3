import {
  UNFINISHED_STATUSES,
  type CampaignDto,
  type CampaignProgressDto,
  type CampaignStatus,
} from '@agency/contracts';
import { useEffect, useState } from 'react';
import { api } from '../../../lib/api';
import { useAppDispatch } from '../../../lib/hooks';
import { useCampaignProgressQuery } from '../api/campaigns-api';

/** How often a campaign being sent is read again (tests shorten it). */
export const progressPolling = { intervalMs: 2000 };

export function isInProgress(status: CampaignStatus): boolean {
  return UNFINISHED_STATUSES.includes(status);
}

export interface CampaignProgress {
  /** The listed campaign with the latest counts and status of its send. */
  campaign: CampaignDto;
  /** Settled (sent or failed) over total, 0..100; null while the recipients are being counted. */
  percent: number | null;
  /** Recipients settled per second over the last minute, as the server measured it. */
  ratePerSecond: number | null;
  /** Recipients still to be settled. */
  pendingCount: number | null;
  /** The send ended while this view watched it (show it once). */
  justFinished: boolean;
}

/**
 * The live state of a campaign being sent: GET /api/admin/campaigns/{id}/progress
 * every few seconds while it is queued, sending or paused. When it ends, the
 * lists and figures that show it are refreshed.
 */
export function useCampaignProgress(listed: CampaignDto): CampaignProgress {
  const dispatch = useAppDispatch();
  const watching = isInProgress(listed.status);
  const { data } = useCampaignProgressQuery(listed.id, {
    skip: !watching,
    pollingInterval: watching ? progressPolling.intervalMs : 0,
    refetchOnMountOrArgChange: true,
  });
  // The reading cached when a watch starts belongs to an earlier send (a
  // resend reuses the id): it is ignored until the first new one arrives.
  const [stale, setStale] = useState<CampaignProgressDto | undefined>(undefined);
  const [wasWatching, setWasWatching] = useState(watching);
  if (watching !== wasWatching) {
    setWasWatching(watching);
    if (watching) setStale(data);
  }
  const reading = watching && data !== stale ? data : undefined;

  // The listed row still says "sending" until the list is read again.
  const justFinished = reading !== undefined && !isInProgress(reading.status);
  useEffect(() => {
    if (justFinished) dispatch(api.util.invalidateTags(['Campaigns', 'Stats']));
  }, [justFinished, dispatch]);

  if (!reading) {
    return {
      campaign: listed,
      percent: null,
      ratePerSecond: null,
      pendingCount: null,
      justFinished: false,
    };
  }
  const { status, total, sentCount, failedCount, startedAt, finishedAt } = reading;
  return {
    campaign: { ...listed, status, total, sentCount, failedCount, startedAt, finishedAt },
    percent: total > 0 ? reading.percent : null,
    ratePerSecond: reading.ratePerSecond,
    pendingCount: reading.pendingCount,
    justFinished,
  };
}
