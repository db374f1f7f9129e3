import { DelayedError, type Job } from 'bullmq';
import type { Semaphore } from 'async-mutex';
import type { CampaignRoundKeys, MailIdentityKey, Redis } from '@agency/platform';
import type { CampaignRecipient, CampaignSendJob } from '@agency/contracts';
import { SENDING_STATUSES } from '@agency/contracts';
import { campaignMailIdentity } from '@agency/platform';
import type { MailServerWatch } from '../mail/mail-server-watch';
import {
  type CampaignSendState,
  type CampaignStore,
  type PositionedOutcome,
} from '@agency/platform';
import type { CampaignMessenger, PreparedCampaign } from './campaign-messenger';
import { takePace, windowClosedUntil } from './campaign-pacing';
import { sendTrackingOf } from './campaign-tracking-urls';
import { settleRoundIfDone, type RoundEndDeps } from './round-end';
import type { Answered, RoundProgress, Wave } from './round-tracker';
import { sendStateReads, type SendStateRead, type SendStateReads } from './send-state-reads';

export interface CampaignSendDeps extends RoundEndDeps {
  messenger: CampaignMessenger;
  /**
   * The worker's mails in flight, shared by its batches: a batch takes a
   * wave's worth while it sends, and gives them back before its bookkeeping,
   * so batches reading and writing the store leave the SMTP connections to
   * those sending.
   */
  mailSlots: Semaphore;
  /** Mails of one batch in flight at once. */
  waveSize: number;
  /** The sender's domain, for the Message-IDs. */
  messageIdDomain: string;
  /** Makes each mail's Message-ID and return path name its recipient by a keyed digest. */
  identityKey: MailIdentityKey;
  /** CAMPAIGN_RETURN_PATH: bounces come back to a per-recipient address derived from it. */
  returnPath?: string;
  /** The agency's clock, which sending windows are read on. */
  timeZone: () => Promise<string>;
  /** Where an outage of the SMTP server is noted for the dashboard, and read before each batch. */
  mailServer: MailServerWatch;
  /** How long a batch waits before looking again while the SMTP server cannot be reached. */
  mailServerRetryMs: number;
  /** Where each campaign's own pace is kept. */
  redis: Redis;
  queuePrefix: string;
}

export type BatchResult = 'done' | 'skipped';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Thrown when some mails of a batch met a passing refusal (4xx, no connection): BullMQ retries the batch. */
export class TransientSendError extends Error {}

/**
 * One campaign's mail prepared per process. The mail can change only while
 * the campaign is a draft, and every send, resume or resend stamps queuedAt:
 * the prepared mail is kept while queuedAt stays. Only a miss reads the
 * subject and content: the batches read the campaign's state without them.
 */
function preparedCampaigns(store: CampaignStore, messenger: CampaignMessenger) {
  const cache = new Map<string, { queuedAt: number; prepared: PreparedCampaign }>();
  return async (campaign: CampaignSendState): Promise<PreparedCampaign | undefined> => {
    const queuedAt = campaign.queuedAt?.getTime() ?? 0;
    const hit = cache.get(campaign.id);
    if (hit && hit.queuedAt === queuedAt) return hit.prepared;
    const mail = await store.mail(campaign.id);
    if (!mail) return undefined;
    const prepared = messenger.prepare(mail, {
      tracking: sendTrackingOf(campaign.id, mail.tracking),
      campaignId: campaign.id,
    });
    if (cache.size > 20) cache.clear();
    cache.set(campaign.id, { queuedAt: mail.queuedAt?.getTime() ?? 0, prepared });
    return prepared;
  };
}

function isCurrent(
  campaign: CampaignSendState | null,
  job: CampaignSendJob,
): campaign is CampaignSendState {
  return (
    campaign !== null &&
    campaign.round === job.round &&
    campaign.pass === job.pass &&
    SENDING_STATUSES.includes(campaign.status)
  );
}

/**
 * Outside the campaign's window the batch waits in BullMQ's delayed set
 * until the window opens, then runs as if new: no store write, no
 * timer of ours, and a worker restart meanwhile changes nothing.
 */
async function waitForWindow(
  job: Job<CampaignSendJob>,
  token: string | undefined,
  opensAt: Date,
): Promise<never> {
  await job.moveToDelayed(opensAt.getTime(), token);
  throw new DelayedError();
}

/**
 * While the SMTP server cannot be reached, a batch waits as it does for
 * its window, without spending an attempt: an outage of any length fails
 * nobody, and the probe's first answer lets the batches go on.
 */
function waitForMailServer(
  deps: CampaignSendDeps,
  job: Job<CampaignSendJob>,
  token: string | undefined,
): Promise<never> {
  return waitForWindow(job, token, new Date(Date.now() + deps.mailServerRetryMs));
}

/** What one run of a batch learns as its waves go: read once they end, to end the batch. */
interface BatchState {
  /** The recipients' keys not looked at yet. */
  candidates: string[];
  outcomes: PositionedOutcome[];
  transientFailures: number;
  lastTransientReason: string;
  windowClosedAt: Date | null;
  stopped: boolean;
  /** When the campaign's state was last read, to notice a pause or a cancel. */
  stateReadAt: number;
  connectionFailure: unknown;
  accepted: boolean;
}

/** One run of a batch: its job, its campaign's state and mail, and what it learns. */
interface BatchRun {
  deps: CampaignSendDeps;
  /** The worker's reads of the campaign's state, shared with its other batches. */
  states: SendStateReads;
  job: Job<CampaignSendJob>;
  campaign: CampaignSendState;
  mail: PreparedCampaign;
  keys: CampaignRoundKeys;
  recipientOf: (key: string) => CampaignRecipient;
  record: (answered: Answered) => void;
  lastAttempt: boolean;
  state: BatchState;
}

/** The batch's recipients not settled in the ledger are its candidates; nothing is recorded yet. */
function startBatchRun(
  deps: CampaignSendDeps,
  states: SendStateReads,
  job: Job<CampaignSendJob>,
  { state: campaign, readAt }: SendStateRead & { state: CampaignSendState },
  mail: PreparedCampaign,
): BatchRun {
  const { campaignId, round, recipients } = job.data;
  const keys = deps.tracker.keys(campaignId, round);
  const position = new Map(recipients.map((recipient, index) => [recipient.key, index]));
  // Stryker disable next-line UnaryOperator: every key a wave answers is a recipient of the batch, never missing
  const recipientOf = (key: string) => recipients[position.get(key) ?? -1] as CampaignRecipient;
  const settledInLedger = new Set(job.data.settled);
  const candidates = recipients
    .filter((_, index) => !settledInLedger.has(index))
    .map((recipient) => recipient.key);
  const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
  const outcomes: PositionedOutcome[] = [];
  const record = ({ key, outcome }: Answered) =>
    // Stryker disable next-line UnaryOperator: every key a wave answers is a recipient of the batch, never missing
    outcomes.push({ position: position.get(key) ?? -1, email: recipientOf(key).email, outcome });
  const state: BatchState = {
    candidates,
    outcomes,
    transientFailures: 0,
    // Stryker disable next-line StringLiteral: read only once a passing refusal has set it
    lastTransientReason: '',
    windowClosedAt: null,
    stopped: false,
    // The processor has just read it, to start the batch.
    stateReadAt: readAt,
    connectionFailure: undefined,
    accepted: false,
  };
  return { deps, states, job, campaign, mail, keys, recipientOf, record, lastAttempt, state };
}

/** Sends one mail of a wave: its outcome, or nothing while it stays owed. */
async function sendOne(
  { deps, job, mail, recipientOf, lastAttempt, state }: BatchRun,
  { key, attempts }: { key: string; attempts: number },
): Promise<Answered | undefined> {
  const { campaignId, round } = job.data;
  // Both name the recipient by the same digest, made once.
  const { messageId, returnPath } = campaignMailIdentity(
    deps.identityKey,
    campaignId,
    round,
    key,
    deps.messageIdDomain,
    deps.returnPath,
  );
  try {
    await mail.send(recipientOf(key), messageId, returnPath);
    state.accepted = true;
    return { key, outcome: { state: 'sent', attempts } } as Answered;
  } catch (error) {
    // No reply about this recipient: it stays owed, whatever attempt this is.
    if (deps.messenger.isUnreachable(error)) {
      state.connectionFailure = error;
      return undefined;
    }
    const reason = deps.messenger.failureReason(error);
    if (!deps.messenger.isPermanentFailure(error) && !lastAttempt) {
      state.transientFailures += 1;
      state.lastTransientReason = reason;
      return undefined;
    }
    return { key, outcome: { state: 'failed', reason, attempts } } as Answered;
  }
}

/**
 * How often a sending batch reads its campaign's state: a batch whose
 * pace keeps granting never waits, and a pause or a cancel must still
 * end it within about this long (one read, however many mails).
 */
export const SEND_STATE_READ_INTERVAL_MS = 1000;

/**
 * Reads the campaign's state again, or takes another batch's read of it
 * younger than the interval: a pause, a cancel or a new pass stops the batch.
 */
async function readSendStateAgain({ states, job, state }: BatchRun): Promise<void> {
  const read = await states.recent(job.data.campaignId, SEND_STATE_READ_INTERVAL_MS);
  state.stateReadAt = read.readAt;
  if (!isCurrent(read.state, job.data)) state.stopped = true;
}

/** The mails the next wave may send: none once the batch stopped or its window closed. */
async function nextWaveSize(run: BatchRun): Promise<number> {
  const { deps, campaign, state } = run;
  if (Date.now() - state.stateReadAt >= SEND_STATE_READ_INTERVAL_MS) await readSendStateAgain(run);
  const goOn =
    state.candidates.length > 0 && !state.stopped && state.connectionFailure === undefined;
  let size = goOn ? deps.waveSize : 0;
  // The window may close during a batch: what is left waits for the next opening.
  if (size > 0) {
    state.windowClosedAt = windowClosedUntil(campaign, await deps.timeZone());
    if (state.windowClosedAt) size = 0;
  }
  return size;
}

/** Gives back the slots the batch holds now: a wait for the pace takes new ones. */
interface MailSlots {
  release: () => void;
}

/**
 * No mail may go at the campaign's own pace yet: the last wave's outcomes
 * are written, the slots given back for the wait, then taken again.
 */
async function waitForPace(
  run: BatchRun,
  slots: MailSlots,
  answered: Answered[],
  waitMs: number,
): Promise<void> {
  const { deps, job, campaign, keys } = run;
  const { campaignId } = job.data;
  // The last wave's outcomes are written first: the slots are given
  // back only with no mail of this batch left without an outcome.
  // Stryker disable next-line ArrayDeclaration: a wave of size 0 looks at no candidate
  const written = await deps.tracker.wave(campaignId, keys, answered, 0, []);
  deps.folds.fold(campaign, written.progress);
  slots.release();
  await sleep(waitMs);
  [, slots.release] = await deps.mailSlots.acquire(deps.waveSize);
  // A slow pace can hold a batch for minutes: a pause or a cancel
  // meanwhile ends it here (one read per wait, never per mail); a
  // resume queues again whoever has no outcome yet.
  await readSendStateAgain(run);
}

/**
 * One exchange with Redis: writes the last wave's outcomes, and notes the
 * attempts of the recipients this wave picks among the candidates.
 */
async function reserveWave(run: BatchRun, answered: Answered[], size: number): Promise<Wave> {
  const { deps, job, campaign, keys, state } = run;
  // A wave looks at no more candidates than it may pick, so what it
  // sends Redis stays the same size however large the batch.
  const looked = state.candidates.slice(0, size);
  const wave = await deps.tracker.wave(job.data.campaignId, keys, answered, size, looked);
  // The sent count moves with each wave, as the rate (written by the same exchange)
  // does: a batch at a slow pace takes minutes, too long to wait for its end.
  deps.folds.fold(campaign, wave.progress);
  wave.answered.forEach(run.record);
  state.candidates = state.candidates.slice(wave.examined);
  return wave;
}

/** Sends the wave's picked mails at once, and records what they answered. */
async function sendWave(run: BatchRun, picked: Wave['picked']): Promise<Answered[]> {
  const answered = (await Promise.all(picked.map((entry) => sendOne(run, entry)))).filter(
    (result): result is Answered => result !== undefined,
  );
  answered.forEach(run.record);
  if (run.state.accepted) await run.deps.mailServer.reachable();
  return answered;
}

/**
 * The batch's waves. Their slots are held from the first attempt noted
 * to the last outcome written: never more mails without an outcome in
 * Redis than the worker's slots.
 */
async function sendWaves(run: BatchRun): Promise<RoundProgress> {
  const { deps, job, campaign, state } = run;
  const [, release] = await deps.mailSlots.acquire(deps.waveSize);
  const slots: MailSlots = { release };
  try {
    let answered: Answered[] = [];
    for (;;) {
      let size = await nextWaveSize(run);
      if (size > 0 && campaign.ratePerMinute) {
        const pace = await takePace(
          deps.redis,
          deps.queuePrefix,
          job.data.campaignId,
          campaign.ratePerMinute,
          Math.min(size, state.candidates.length),
        );
        if (pace.granted === 0) {
          await waitForPace(run, slots, answered, pace.waitMs);
          answered = [];
          continue;
        }
        size = pace.granted;
      }
      const wave = await reserveWave(run, answered, size);
      // A wave of recipients all answered already (a batch run again) picks
      // nobody: the next one looks further, until none is left.
      if (wave.picked.length === 0 && (size === 0 || state.candidates.length === 0)) {
        return wave.progress;
      }
      answered = await sendWave(run, wave.picked);
    }
  } finally {
    slots.release();
  }
}

/**
 * One write of the batch's ledger document, the round ended if it is
 * settled; then the batch completes, waits (its window, the mail server),
 * or fails for BullMQ to try it again.
 */
async function endBatch(
  { deps, job, campaign, keys, state }: BatchRun,
  token: string | undefined,
  progress: RoundProgress,
): Promise<BatchResult> {
  const { campaignId, round, seq, recipients } = job.data;
  await deps.store.recordOutcomes(campaignId, round, seq, state.outcomes);
  await settleRoundIfDone(deps, campaign, keys, progress);
  if (state.stopped) return 'skipped';
  if (state.windowClosedAt) return waitForWindow(job, token, state.windowClosedAt);
  if (state.connectionFailure !== undefined) {
    await deps.mailServer.unreachable(state.connectionFailure);
    return waitForMailServer(deps, job, token);
  }
  if (state.transientFailures > 0) {
    throw new TransientSendError(
      `${state.transientFailures} of ${recipients.length} mails not accepted yet: ${state.lastTransientReason}`,
    );
  }
  deps.logger.debug(
    { campaignId, round, seq, jobId: job.id, recipients: recipients.length },
    'campaign batch sent',
  );
  return 'done';
}

/**
 * Sends one batch of a campaign, a wave of mails at a time. One exchange
 * with Redis per wave writes the last wave's outcomes and notes the next
 * wave's attempts, so the only mails that can go twice are those in flight
 * at a crash: a batch that runs again skips whoever has an outcome, and the
 * ledger shows the others with a second attempt. The round's counters are
 * folded after each wave (at most twice a second per campaign). Then one
 * write of the batch's ledger document, and the round ended if it is settled.
 */
export function campaignSendProcessor(deps: CampaignSendDeps) {
  const prepared = preparedCampaigns(deps.store, deps.messenger);
  const states = sendStateReads(deps.store);
  return async (job: Job<CampaignSendJob>, token?: string): Promise<BatchResult> => {
    // A batch starts on a read of its own: the others' reads then share it.
    const read = await states.fresh(job.data.campaignId);
    const campaign = read.state;
    // Paused, cancelled or resumed as a new pass: nothing is sent; the pass that goes on queues what is owed.
    if (!isCurrent(campaign, job.data)) return 'skipped';
    const closedUntil = windowClosedUntil(campaign, await deps.timeZone());
    if (closedUntil) return waitForWindow(job, token, closedUntil);
    if (await deps.mailServer.isUnreachable()) return waitForMailServer(deps, job, token);
    const mail = await prepared(campaign);
    // Deleted between the two reads: there is nobody left to send it for.
    if (!mail) return 'skipped';

    const run = startBatchRun(deps, states, job, { state: campaign, readAt: read.readAt }, mail);
    const progress = await sendWaves(run);
    return endBatch(run, token, progress);
  };
}
