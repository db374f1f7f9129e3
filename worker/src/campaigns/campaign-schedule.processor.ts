import type { Job, Queue } from 'bullmq';
import {
  QUEUE_NAMES,
  campaignDispatchJobId,
  type CampaignDispatchJob,
  type CampaignScheduleJob,
} from '@agency/contracts';
import { MAIL_JOB_OPTIONS, type Logger, type CampaignStore } from '@agency/platform';
import type { RoundTracker } from './round-tracker';

export interface CampaignScheduleDeps {
  store: CampaignStore;
  tracker: RoundTracker;
  dispatchQueue: Queue<CampaignDispatchJob>;
  logger: Logger;
}

/**
 * Starts a scheduled campaign whose time has come, as a send would: queued,
 * then its dispatch. The move is conditional on the campaign still being
 * scheduled for that very time, and made in the campaign's write turn, so
 * the delayed job and the recovery (or two workers) cannot both start it;
 * the dispatch's id is the campaign's, so even a repeat adds no second one.
 */
export async function startDueCampaign(
  deps: CampaignScheduleDeps,
  campaignId: string,
  scheduledAt: Date,
): Promise<boolean> {
  const started = await deps.tracker.writeInTurn(campaignId, () =>
    deps.store.startScheduled(campaignId, scheduledAt),
  );
  if (!started) return false;
  // Should Redis refuse now, the recovery finds the campaign queued and adds it.
  await deps.dispatchQueue.add(
    QUEUE_NAMES.campaignDispatch,
    { campaignId },
    { ...MAIL_JOB_OPTIONS, jobId: campaignDispatchJobId(campaignId) },
  );
  deps.logger.info({ campaignId, scheduledAt }, 'scheduled campaign started');
  return true;
}

/** The delayed job the API adds for a scheduled campaign, due at its time. */
export function campaignScheduleProcessor(deps: CampaignScheduleDeps) {
  return async (job: Job<CampaignScheduleJob>): Promise<'started' | 'skipped'> => {
    const started = await startDueCampaign(
      deps,
      job.data.campaignId,
      new Date(job.data.scheduledAt),
    );
    return started ? 'started' : 'skipped';
  };
}
