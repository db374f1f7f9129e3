import type { JobsOptions, Queue } from 'bullmq';
import {
  QUEUE_NAMES,
  campaignRoundDispatchJobId,
  campaignSendJobId,
  type CampaignDispatchJob,
  type CampaignSendJob,
} from '@agency/contracts';
import type { CampaignSendState, LedgerBatch, LedgerTally } from '@agency/platform';
import { addSendJobs, owes, sendJobOf } from './send-jobs';
import { finishRound, type RoundEndDeps } from './round-end';
import type { Answered } from './round-tracker';
import { windowClosedUntil } from './campaign-pacing';
import { startDueCampaign } from './campaign-schedule.processor';

/** What the round's ledger says: its size and outcomes, and how many batches still owe mail. */
function tallyOf(batches: readonly LedgerBatch[]): LedgerTally {
  const tally: LedgerTally = { recipients: 0, sent: 0, failed: 0, owedBatches: 0 };
  for (const batch of batches) {
    tally.recipients += batch.states.length;
    for (const state of batch.states) {
      if (state === 'sent') tally.sent += 1;
      if (state === 'failed') tally.failed += 1;
    }
    // Stryker disable next-line all: the batches owed are only logged
    if (owes(batch)) tally.owedBatches += 1;
  }
  return tally;
}

/**
 * The ledger's outcomes, to write back into Redis. Only whether each went
 * out counts there; the servers' replies stay in the ledger.
 */
function answeredIn(batches: readonly LedgerBatch[]): Answered[] {
  return batches.flatMap((batch) =>
    batch.recipients.flatMap(({ key }, position): Answered[] => {
      const state = batch.states[position];
      if (state === 'sent') return [{ key, outcome: { state, attempts: 1 } }];
      if (state === 'failed') return [{ key, outcome: { state, reason: '', attempts: 1 } }];
      return [];
    }),
  );
}

export interface CampaignRecoveryDeps extends RoundEndDeps {
  sendQueue: Queue<CampaignSendJob>;
  sendJobOptions: JobsOptions;
  dispatchQueue: Queue<CampaignDispatchJob>;
  /** How long a campaign may stay queued, or sending without a change, before it is looked at. */
  stalledAfterMs: number;
  /** The agency's clock: a campaign waiting for its window to open has not stalled. */
  timeZone: () => Promise<string>;
}

export interface RecoveryPass {
  /** Scheduled campaigns started here: their time passed while their delayed job was lost. */
  schedulesStarted: number;
  dispatches: number;
  requeuedBatches: number;
  finished: number;
}

/**
 * Adds the dispatch of the campaign's current pass, with the id the API
 * would have used: one that exists is not added twice, and one that gave
 * up (its retries spent while the store was down) is tried again.
 */
async function redispatch(deps: CampaignRecoveryDeps, campaign: CampaignSendState) {
  const jobId = campaignRoundDispatchJobId(campaign.id, campaign.round, campaign.pass);
  const job = await deps.dispatchQueue.getJob(jobId);
  if (job && (await job.isFailed())) await job.retry();
  await deps.dispatchQueue.add(
    QUEUE_NAMES.campaignDispatch,
    { campaignId: campaign.id },
    { jobId },
  );
}

/**
 * A campaign sending with no change for a while may have lost its jobs (a
 * Redis failover, a restart without persistence): its ledger says what is
 * owed. Batches still owing mail are queued again (an existing job is left
 * as it is, a failed one tried again), the round's counters are rebuilt in
 * Redis if they are gone, and a round with nothing owed is ended.
 */
async function recoverSending(
  deps: CampaignRecoveryDeps,
  campaign: CampaignSendState,
  pass: RecoveryPass,
) {
  if (campaign.dispatchedRound !== campaign.round) {
    await redispatch(deps, campaign);
    pass.dispatches += 1;
    return;
  }
  const keys = deps.tracker.keys(campaign.id, campaign.round);
  const batches: LedgerBatch[] = [];
  for await (const batch of deps.store.roundBatches(campaign.id, campaign.round)) {
    batches.push(batch);
  }
  const tally = tallyOf(batches);
  const version = campaign.countersVersion + 1;
  const rebuilt = await deps.tracker.rebuild(keys, answeredIn(batches), tally.recipients, version);
  // Stryker disable next-line all: decides a log line only
  if (rebuilt) {
    deps.logger.warn(
      { campaignId: campaign.id, round: campaign.round, ...tally },
      'campaign counters rebuilt from the ledger',
    );
  }
  const owed = batches.filter(owes);
  if (owed.length === 0) {
    await finishRound(deps, campaign, keys, { sent: tally.sent, failed: tally.failed, version });
    pass.finished += 1;
    return;
  }
  const jobs = [];
  for (const batch of owed) {
    const id = campaignSendJobId(campaign.id, campaign.round, campaign.pass, batch.seq);
    const existing = await deps.sendQueue.getJob(id);
    if (existing && (await existing.isFailed())) {
      await existing.retry();
      continue;
    }
    // A job that ended while its batch still owes mail cannot run again under its id: replace it.
    if (existing && (await existing.isCompleted())) await existing.remove();
    else if (existing) continue;
    jobs.push(sendJobOf(campaign, batch.seq, batch.recipients, batch.states));
  }
  if (jobs.length === 0) return;
  await addSendJobs(deps, jobs);
  pass.requeuedBatches += jobs.length;
  deps.logger.warn(
    { campaignId: campaign.id, round: campaign.round, batches: jobs.length },
    'campaign batches queued again from the ledger',
  );
}

/**
 * The campaign engine's safety net, run by a job scheduler: a campaign
 * queued whose dispatch never ran (the API died between marking it and
 * adding the job, or Redis lost the job), and a campaign sending whose jobs
 * Redis lost, are taken up again from the store, the source of truth.
 */
export function campaignRecoveryProcessor(deps: CampaignRecoveryDeps) {
  return async (): Promise<RecoveryPass> => {
    const pass: RecoveryPass = {
      schedulesStarted: 0,
      dispatches: 0,
      requeuedBatches: 0,
      finished: 0,
    };
    // A time missed while Redis lost its delayed job (or while every worker was down) starts
    // now, once: the start is conditional on the campaign still being scheduled for that time.
    for (const due of await deps.store.dueSchedules(new Date())) {
      if (await startDueCampaign(deps, due.id, due.scheduledAt)) pass.schedulesStarted += 1;
    }
    for (const campaign of await deps.store.stuckQueued(deps.stalledAfterMs)) {
      await redispatch(deps, campaign);
      pass.dispatches += 1;
    }
    for (const campaign of await deps.store.stalledSending(deps.stalledAfterMs)) {
      // Outside its window a campaign writes nothing: its batches wait in BullMQ's delayed set.
      if (windowClosedUntil(campaign, await deps.timeZone())) continue;
      await recoverSending(deps, campaign, pass);
    }
    // Stryker disable next-line all: decides a log line only
    if (pass.dispatches > 0 || pass.schedulesStarted > 0) {
      deps.logger.info(pass, 'campaign dispatches re-added');
    }
    return pass;
  };
}
