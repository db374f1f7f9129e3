import type { Queue } from 'bullmq';
import {
  QUEUE_NAMES,
  campaignRoundDispatchJobId,
  type CampaignDispatchJob,
} from '@agency/contracts';
import { findStuckQueuedCampaigns, type Logger } from '@agency/backend/store';

/**
 * The API marks a campaign queued, then adds its dispatch job. If it died in
 * between (or Redis lost the job), the campaign would wait forever: each
 * pass adds the dispatch of every campaign queued for longer than
 * `queuedAgeMs` again. The job id is the one the API would have used, so a
 * dispatch that does exist is not added twice.
 */
export function campaignRecoveryProcessor(deps: {
  dispatchQueue: Queue<CampaignDispatchJob>;
  queuedAgeMs: number;
  logger: Logger;
}) {
  return async (): Promise<number> => {
    const stuck = await findStuckQueuedCampaigns(deps.queuedAgeMs);
    if (stuck.length === 0) return 0;
    // A dispatch that gave up (its retries spent while the store was down) keeps its id: retry it.
    for (const { id, round, pass } of stuck) {
      const job = await deps.dispatchQueue.getJob(campaignRoundDispatchJobId(id, round, pass));
      if (job && (await job.isFailed())) await job.retry();
    }
    await deps.dispatchQueue.addBulk(
      stuck.map(({ id, round, pass }) => ({
        name: QUEUE_NAMES.campaignDispatch,
        data: { campaignId: id },
        opts: { jobId: campaignRoundDispatchJobId(id, round, pass) },
      })),
    );
    deps.logger.info({ campaigns: stuck.length }, 'campaign dispatches re-added');
    return stuck.length;
  };
}
