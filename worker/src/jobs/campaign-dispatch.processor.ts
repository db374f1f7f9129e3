import { createHash } from 'node:crypto';
import type { Job, JobsOptions, Queue } from 'bullmq';
import {
  CAMPAIGN_QUEUE_NAMES,
  campaignSendJobId,
  type CampaignDispatchJob,
  type CampaignRecipient,
  type CampaignSendJob,
} from '@agency/contracts';
import {
  SENDING_STATUSES,
  appendPendingFacts,
  beginSending,
  findCampaignSendState,
  recordTotal,
  streamFailedRecipients,
  streamRecipients,
  type CampaignSendState,
  type Logger,
} from '@agency/backend/store';
import type { SendLedger } from '../campaigns/send-ledger';
import { settleRoundIfDone } from './campaign-send.processor';

export interface CampaignDispatchDeps {
  sendQueue: Queue<CampaignSendJob>;
  ledger: SendLedger;
  /** Recipients per send job. */
  batchSize: number;
  sendJobOptions: JobsOptions;
  logger: Logger;
}

/** Batches queued per bulk add, and per check that the campaign was not paused meanwhile. */
const BATCHES_PER_ADD = 20;

export type DispatchResult = 'dispatched' | 'skipped' | 'stopped';

/** Names a batch by its recipients, so a dispatch run again queues the same ids. */
function batchDigest(recipients: readonly CampaignRecipient[]): string {
  const hash = createHash('sha1');
  for (const recipient of recipients) hash.update(recipient.key).update('\n');
  return hash.digest('hex').slice(0, 24);
}

function recipientsOf(campaign: CampaignSendState, campaignId: string) {
  return campaign.round === 1
    ? streamRecipients(campaign.recipientType as 'all' | 'contacts' | 'subscribers')
    : streamFailedRecipients(campaignId, campaign.round - 1);
}

/**
 * Expands a campaign into its send jobs: streams the recipients with a
 * cursor, appends them to the ledger as pending and adds their batches in
 * bulk, so sending starts while the rest is still being read and memory stays
 * flat. Every id is deterministic: a dispatch that dies half-way and runs
 * again adds nothing twice. When the last batch is queued the round's total
 * is final.
 */
export function campaignDispatchProcessor(deps: CampaignDispatchDeps) {
  return async (job: Job<CampaignDispatchJob>): Promise<DispatchResult> => {
    const { campaignId } = job.data;
    const campaign = await deps.ledger.writeInTurn(campaignId, () => beginSending(campaignId));
    if (!campaign || !SENDING_STATUSES.includes(campaign.status)) return 'skipped';
    const { round, pass } = campaign;
    const keys = deps.ledger.keys(campaignId, round);

    let total = 0;
    let pending: CampaignRecipient[] = [];
    let batches: CampaignSendJob[] = [];

    const flush = async (): Promise<boolean> => {
      if (batches.length === 0) return true;
      await appendPendingFacts(
        campaignId,
        round,
        batches.flatMap((batch) => batch.recipients),
      );
      await deps.sendQueue.addBulk(
        batches.map((data) => ({
          name: CAMPAIGN_QUEUE_NAMES.send,
          data,
          opts: {
            ...deps.sendJobOptions,
            jobId: campaignSendJobId(campaignId, round, pass, batchDigest(data.recipients)),
          },
        })),
      );
      batches = [];
      // The progress bar shows the total growing while the dispatch reads on.
      if (round === 1)
        await deps.ledger.writeIfFree(campaignId, () => recordTotal(campaignId, total));
      const current = await findCampaignSendState(campaignId);
      return Boolean(current && SENDING_STATUSES.includes(current.status));
    };

    for await (const recipient of recipientsOf(campaign, campaignId)) {
      total += 1;
      pending.push(recipient);
      if (pending.length < deps.batchSize) continue;
      batches.push({ campaignId, round, recipients: pending });
      pending = [];
      if (batches.length >= BATCHES_PER_ADD && !(await flush())) return 'stopped';
    }
    if (pending.length > 0) batches.push({ campaignId, round, recipients: pending });
    if (!(await flush())) return 'stopped';

    if (round === 1) {
      await deps.ledger.writeInTurn(campaignId, () => recordTotal(campaignId, total));
    }
    const state = await deps.ledger.markDispatched(keys, total);
    // The sends may all have finished before the total was known: settle here then.
    await settleRoundIfDone(deps, campaign, keys, state);
    deps.logger.info({ campaignId, round, pass, total }, 'campaign dispatched');
    return 'dispatched';
  };
}
