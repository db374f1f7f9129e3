import type { CampaignSendState, LedgerBatch } from '@agency/platform';
import type { JobsOptions, Queue } from 'bullmq';
import {
  QUEUE_NAMES,
  campaignSendJobId,
  type CampaignRecipient,
  type CampaignSendJob,
} from '@agency/contracts';

/** A batch's send job as this pass queues it: the ledger's outcomes, if any, are not sent again. */
export function sendJobOf(
  campaign: Pick<CampaignSendState, 'id' | 'round' | 'pass'>,
  seq: number,
  recipients: CampaignRecipient[],
  states?: LedgerBatch['states'],
): CampaignSendJob {
  const settled = (states ?? []).flatMap((state, index) => (state === 'pending' ? [] : [index]));
  return {
    campaignId: campaign.id,
    round: campaign.round,
    pass: campaign.pass,
    seq,
    recipients,
    ...(settled.length > 0 ? { settled } : {}),
  };
}

export function owes(batch: LedgerBatch): boolean {
  return batch.states.includes('pending');
}

/** Adds send jobs in bulk; an id already in Redis (queued by an earlier run) is left as it is. */
export function addSendJobs(
  deps: { sendQueue: Queue<CampaignSendJob>; sendJobOptions: JobsOptions },
  jobs: readonly CampaignSendJob[],
) {
  return deps.sendQueue.addBulk(
    jobs.map((data) => ({
      name: QUEUE_NAMES.campaignSend,
      data,
      opts: {
        ...deps.sendJobOptions,
        jobId: campaignSendJobId(data.campaignId, data.round, data.pass, data.seq),
      },
    })),
  );
}
