import type { Job, JobsOptions, Queue } from 'bullmq';
import type {
  AudienceTarget,
  CampaignDispatchJob,
  CampaignRecipient,
  CampaignSendJob,
} from '@agency/contracts';
import { SENDING_STATUSES, campaignSourceKeyOf } from '@agency/contracts';
import {
  firstMetOnly,
  type CampaignSendState,
  type CampaignStore,
  type LedgerBatch,
  type RedisWalkKeys,
  type WalkKeys,
} from '@agency/platform';
import type { CampaignMessenger } from './campaign-messenger';
import { startCampaignTracking } from './campaign-tracking-start';
import { settleRoundIfDone, type RoundEndDeps } from './round-end';
import { addSendJobs, owes, sendJobOf } from './send-jobs';

export interface CampaignDispatchDeps extends RoundEndDeps {
  sendQueue: Queue<CampaignSendJob>;
  /** Recipients per send job. */
  batchSize: number;
  sendJobOptions: JobsOptions;
  /** How long a batch of an older pass may stay active before a resume queues its recipients anyway. */
  olderPassWaitMs: number;
  /** Builds the campaign's link table, as its mail renders, when its tracking starts. */
  messenger: Pick<CampaignMessenger, 'trackedLinks'>;
  /**
   * The audience as the dashboard's kept figures count it, without a walk;
   * undefined when they cannot say (lists, segments, Redis not answering).
   */
  keptAudienceTotal?: (target: AudienceTarget) => Promise<number | undefined>;
}

/** Batches queued per bulk add at most, and per check that the campaign was not paused meanwhile. */
const MAX_BATCHES_PER_ADD = 20;

export type DispatchResult = 'dispatched' | 'skipped' | 'stopped';

/**
 * A resume is a new pass over the round. A batch of an older pass that is
 * still being sent could meet its own recipients queued again: wait until
 * none is active. A dead worker's batch stays active until it is found
 * stalled, and then skips itself (its pass is old), so the wait is bounded.
 */
async function olderPassesEnded(deps: CampaignDispatchDeps, campaign: CampaignSendState) {
  const roundPrefix = `campaign-${campaign.id}-r${campaign.round}-p`;
  const current = `${roundPrefix}${campaign.pass}-`;
  const deadline = Date.now() + deps.olderPassWaitMs;
  // Stryker disable next-line EqualityOperator: "<=" differs for one millisecond of a wait measured in seconds
  while (Date.now() < deadline) {
    const active = await deps.sendQueue.getJobs(['active']);
    const older = active.filter(
      // Stryker disable next-line OptionalChaining: a job read back from the queue always has its id
      (job) => job.id?.startsWith(roundPrefix) && !job.id.startsWith(current),
    );
    if (older.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  deps.logger.warn({ campaignId: campaign.id }, 'batches of an older pass are still active');
}

/**
 * Queues a round's batches as they come: the ledger documents of new ones
 * first, then the send jobs. The first add holds one batch, so the first mail
 * goes out once one batch is read; each add doubles, up to twenty. After
 * each, the campaign is read again: a pause stops the dispatch.
 */
function batchQueue(deps: CampaignDispatchDeps, campaign: CampaignSendState) {
  let fresh: { seq: number; recipients: CampaignRecipient[] }[] = [];
  let jobs: CampaignSendJob[] = [];
  let limit = 1;

  async function flush(): Promise<boolean> {
    if (jobs.length === 0) return true;
    await deps.store.addBatches(campaign.id, campaign.round, fresh);
    await addSendJobs(deps, jobs);
    fresh = [];
    jobs = [];
    limit = Math.min(limit * 2, MAX_BATCHES_PER_ADD);
    const now = await deps.store.sendState(campaign.id);
    return now !== null && now.pass === campaign.pass && SENDING_STATUSES.includes(now.status);
  }

  return {
    flush,
    /** A batch from the ledger that still owes mail. */
    async requeue(batch: LedgerBatch): Promise<boolean> {
      jobs.push(sendJobOf(campaign, batch.seq, batch.recipients, batch.states));
      return jobs.length < limit || flush();
    },
    /** A new batch: its ledger document is written before its job is queued. */
    async add(seq: number, recipients: CampaignRecipient[]): Promise<boolean> {
      fresh.push({ seq, recipients });
      jobs.push(sendJobOf(campaign, seq, recipients));
      return jobs.length < limit || flush();
    },
  };
}

/** Whom the first round walks, for its count and its send alike. */
function audienceTargetOf(campaign: CampaignSendState): AudienceTarget {
  return {
    recipientType: campaign.recipientType,
    listIds: campaign.listIds,
    segmentIds: campaign.segmentIds,
    enquiryLawfulBasis: campaign.enquiryLawfulBasis,
  };
}

/** Runs a walk of the round with its own set of met keys in Redis, dropped however the walk ends. */
async function withWalkKeys<T>(
  deps: CampaignDispatchDeps,
  campaign: CampaignSendState,
  walk: (met: RedisWalkKeys) => Promise<T>,
): Promise<T> {
  const met = deps.tracker.walkKeys(campaign.id, campaign.round);
  try {
    return await walk(met);
  } finally {
    await met.release();
  }
}

/**
 * The first round's audience, counted before its first batch is queued: the
 * progress bar reads "0 / 1,952" from the start, never the size of the batches
 * queued so far. Until this is written the total is 0, which the dashboard
 * shows as counting. The kept figures give it for contacts, subscribers and
 * everyone, as the dashboard showed it before the send; lists and segments
 * (or figures that cannot be read) take one more walk of the audience. The
 * dispatch's own count, written once every batch is queued, is exact.
 */
async function recordAudienceTotal(deps: CampaignDispatchDeps, campaign: CampaignSendState) {
  const target = audienceTargetOf(campaign);
  const total =
    (await deps.keptAudienceTotal?.(target)) ??
    (await withWalkKeys(deps, campaign, (met) => deps.store.countAudience(target, met)));
  await deps.tracker.writeInTurn(campaign.id, () => deps.store.recordTotal(campaign.id, total));
}

/** The round's recipients, each once, but for those `met` knows already (the ledger's). */
function recipientsOf(store: CampaignStore, campaign: CampaignSendState, met: WalkKeys) {
  return campaign.round === 1
    ? store.audience(audienceTargetOf(campaign), met)
    : firstMetOnly(store.failedRecipients(campaign.id, campaign.round - 1), met);
}

/** The round's mails per source, as the report per list reads them (`campaignSourceKeyOf`). */
function sourceTally() {
  const counts: Record<string, number> = {};
  return {
    counts,
    count(recipient: CampaignRecipient) {
      const key = campaignSourceKeyOf(recipient.source);
      counts[key] = (counts[key] ?? 0) + 1;
    },
  };
}

type BatchQueue = ReturnType<typeof batchQueue>;
type SourceTally = ReturnType<typeof sourceTally>;

/**
 * What one dispatch learns as it goes: whom it met (the ledger's recipients
 * first, then the walk's, kept in Redis), the next batch, the round's size.
 */
interface RoundWalk {
  met: WalkKeys;
  nextSeq: number;
  total: number;
  mails: SourceTally;
}

/** The round's batches already in the ledger: each counted, and queued again while it owes mail. */
async function requeueLedger(
  deps: CampaignDispatchDeps,
  campaign: CampaignSendState,
  queue: BatchQueue,
  walk: RoundWalk,
): Promise<boolean> {
  for await (const batch of deps.store.roundBatches(campaign.id, campaign.round)) {
    walk.nextSeq = Math.max(walk.nextSeq, batch.seq + 1);
    walk.total += batch.recipients.length;
    await walk.met.firstMet(batch.recipients.map(({ key }) => key));
    for (const recipient of batch.recipients) walk.mails.count(recipient);
    if (owes(batch) && !(await queue.requeue(batch))) return false;
  }
  return true;
}

/** The round's recipients not yet in the ledger, in new batches. */
async function queueNewRecipients(
  deps: CampaignDispatchDeps,
  campaign: CampaignSendState,
  queue: BatchQueue,
  walk: RoundWalk,
): Promise<boolean> {
  let pending: CampaignRecipient[] = [];
  for await (const recipient of recipientsOf(deps.store, campaign, walk.met)) {
    walk.total += 1;
    walk.mails.count(recipient);
    pending.push(recipient);
    if (pending.length < deps.batchSize) continue;
    if (!(await queue.add(walk.nextSeq++, pending))) return false;
    pending = [];
  }
  return pending.length === 0 || queue.add(walk.nextSeq, pending);
}

/** Queues the round's batches: the ledger's owing mail, then the recipients not in it. Null once stopped. */
async function queueRound(
  deps: CampaignDispatchDeps,
  campaign: CampaignSendState,
  met: WalkKeys,
): Promise<RoundWalk | null> {
  const queue = batchQueue(deps, campaign);
  const walk: RoundWalk = { met, nextSeq: 0, total: 0, mails: sourceTally() };
  if (!(await requeueLedger(deps, campaign, queue, walk))) return null;
  if (campaign.dispatchedRound !== campaign.round) {
    if (!(await queueNewRecipients(deps, campaign, queue, walk))) return null;
  }
  return (await queue.flush()) ? walk : null;
}

/**
 * Expands a campaign's round into its send jobs. First the ledger: its
 * batches still owing mail are queued again (a resume, or a dispatch run
 * again after a crash), and whoever is in a batch is known. Then, unless the
 * round's whole audience is in the ledger already, the recipients are
 * streamed and every one not yet in a batch goes into a new one. Whom the walk
 * met is kept in Redis, a page of recipients at a time, so memory stays flat
 * in the audience's size; and every id is deterministic: a dispatch that dies half-way and runs
 * again adds nothing twice. When the last batch is queued the round's total
 * is final, and so are its mails per source: every recipient of the round
 * was counted once, from the ledger or from the walk.
 */
export function campaignDispatchProcessor(deps: CampaignDispatchDeps) {
  return async (job: Job<CampaignDispatchJob>): Promise<DispatchResult> => {
    const { campaignId } = job.data;
    const campaign = await deps.tracker.writeInTurn(campaignId, () =>
      deps.store.beginSending(campaignId),
    );
    if (!campaign || !SENDING_STATUSES.includes(campaign.status)) return 'skipped';
    // Stryker disable next-line EqualityOperator,ConditionalExpression: at pass 1 there is no older pass, so the wait would find nothing
    if (campaign.pass > 1) await olderPassesEnded(deps, campaign);
    // Before any batch is queued: every mail of the campaign is signed under the key stored now.
    await startCampaignTracking(deps, campaignId);
    const { round } = campaign;
    if (round === 1 && campaign.dispatchedRound !== round)
      await recordAudienceTotal(deps, campaign);

    const walk = await withWalkKeys(deps, campaign, (met) => queueRound(deps, campaign, met));
    if (!walk) return 'stopped';

    const { total } = walk;
    await deps.tracker.writeInTurn(campaignId, () =>
      deps.store.markDispatched(campaignId, round, total, walk.mails.counts),
    );
    const keys = deps.tracker.keys(campaignId, round);
    const progress = await deps.tracker.markDispatched(keys, total);
    // The sends may all have finished before the total was known: settle here then.
    await settleRoundIfDone(deps, campaign, keys, progress);
    deps.logger.info({ campaignId, round, pass: campaign.pass, total }, 'campaign dispatched');
    return 'dispatched';
  };
}
