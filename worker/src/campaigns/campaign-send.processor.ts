import { DelayedError, type Job } from 'bullmq';
import type { Semaphore } from 'async-mutex';
import type { MailIdentityKey, Redis } from '@agency/platform';
import type { CampaignRecipient, CampaignSendJob } from '@agency/contracts';
import { SENDING_STATUSES } from '@agency/contracts';
import { campaignMessageId, campaignReturnPath } from '@agency/platform';
import type { MailServerWatch } from '../mail/mail-server-watch';
import type { CampaignMessenger, PreparedCampaign } from './campaign-messenger';
import {
  type CampaignSendState,
  type CampaignStore,
  type PositionedOutcome,
} from './campaign-store';
import { takePace, windowClosedUntil } from './campaign-pacing';
import { settleRoundIfDone, type RoundEndDeps } from './round-end';
import type { Answered, RoundProgress } from './round-tracker';

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
    const prepared = messenger.prepare(mail);
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
  return async (job: Job<CampaignSendJob>, token?: string): Promise<BatchResult> => {
    const { campaignId, round, seq, recipients } = job.data;
    const campaign = await deps.store.sendState(campaignId);
    // Paused, cancelled or resumed as a new pass: nothing is sent; the pass that goes on queues what is owed.
    if (!isCurrent(campaign, job.data)) return 'skipped';
    /**
     * Outside the campaign's window the batch waits in BullMQ's delayed set
     * until the window opens, then runs as if new: no store write, no
     * timer of ours, and a worker restart meanwhile changes nothing.
     */
    const waitForWindow = async (opensAt: Date): Promise<never> => {
      await job.moveToDelayed(opensAt.getTime(), token);
      throw new DelayedError();
    };
    const closedUntil = windowClosedUntil(campaign, await deps.timeZone());
    if (closedUntil) return waitForWindow(closedUntil);
    /**
     * While the SMTP server cannot be reached, a batch waits as it does for
     * its window, without spending an attempt: an outage of any length fails
     * nobody, and the probe's first answer lets the batches go on.
     */
    const waitForMailServer = () => waitForWindow(new Date(Date.now() + deps.mailServerRetryMs));
    if (await deps.mailServer.isUnreachable()) return waitForMailServer();
    const mail = await prepared(campaign);
    // Deleted between the two reads: there is nobody left to send it for.
    if (!mail) return 'skipped';

    const keys = deps.tracker.keys(campaignId, round);
    const position = new Map(recipients.map((recipient, index) => [recipient.key, index]));
    // Stryker disable next-line UnaryOperator: every key a wave answers is a recipient of the batch, never missing
    const recipientOf = (key: string) => recipients[position.get(key) ?? -1] as CampaignRecipient;
    const settledInLedger = new Set(job.data.settled);
    let candidates = recipients
      .filter((_, index) => !settledInLedger.has(index))
      .map((recipient) => recipient.key);
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const outcomes: PositionedOutcome[] = [];
    const record = ({ key, outcome }: Answered) =>
      // Stryker disable next-line UnaryOperator: every key a wave answers is a recipient of the batch, never missing
      outcomes.push({ position: position.get(key) ?? -1, email: recipientOf(key).email, outcome });
    let transientFailures = 0;
    // Stryker disable next-line StringLiteral: read only once a passing refusal has set it
    let lastTransientReason = '';
    let windowClosedAt: Date | null = null;
    let stopped = false;
    let connectionFailure: unknown;
    let accepted = false;

    const sendOne = async ({ key, attempts }: { key: string; attempts: number }) => {
      const messageId = campaignMessageId(
        deps.identityKey,
        campaignId,
        round,
        key,
        deps.messageIdDomain,
      );
      try {
        const returnPath =
          deps.returnPath &&
          campaignReturnPath(deps.identityKey, deps.returnPath, campaignId, round, key);
        await mail.send(recipientOf(key), messageId, returnPath || undefined);
        accepted = true;
        return { key, outcome: { state: 'sent', attempts } } as Answered;
      } catch (error) {
        // No reply about this recipient: it stays owed, whatever attempt this is.
        if (deps.messenger.isUnreachable(error)) {
          connectionFailure = error;
          return undefined;
        }
        const reason = deps.messenger.failureReason(error);
        if (!deps.messenger.isPermanentFailure(error) && !lastAttempt) {
          transientFailures += 1;
          lastTransientReason = reason;
          return undefined;
        }
        return { key, outcome: { state: 'failed', reason, attempts } } as Answered;
      }
    };

    /**
     * The batch's waves. Their slots are held from the first attempt noted
     * to the last outcome written: never more mails without an outcome in
     * Redis than the worker's slots.
     */
    const sendWaves = async (): Promise<RoundProgress> => {
      let [, releaseSlots] = await deps.mailSlots.acquire(deps.waveSize);
      try {
        let answered: Answered[] = [];
        for (;;) {
          const goOn = candidates.length > 0 && !stopped && connectionFailure === undefined;
          let size = goOn ? deps.waveSize : 0;
          // The window may close during a batch: what is left waits for the next opening.
          if (size > 0) {
            windowClosedAt = windowClosedUntil(campaign, await deps.timeZone());
            if (windowClosedAt) size = 0;
          }
          if (size > 0 && campaign.ratePerMinute) {
            const pace = await takePace(
              deps.redis,
              deps.queuePrefix,
              campaignId,
              campaign.ratePerMinute,
              Math.min(size, candidates.length),
            );
            if (pace.granted === 0) {
              // The last wave's outcomes are written first: the slots are given
              // back only with no mail of this batch left without an outcome.
              // Stryker disable next-line ArrayDeclaration: a wave of size 0 looks at no candidate
              const written = await deps.tracker.wave(campaignId, keys, answered, 0, []);
              deps.folds.fold(campaign, written.progress);
              answered = [];
              releaseSlots();
              await sleep(pace.waitMs);
              [, releaseSlots] = await deps.mailSlots.acquire(deps.waveSize);
              // A slow pace can hold a batch for minutes: a pause or a cancel
              // meanwhile ends it here (one read per wait, never per mail); a
              // resume queues again whoever has no outcome yet.
              if (!isCurrent(await deps.store.sendState(campaignId), job.data)) stopped = true;
              continue;
            }
            size = pace.granted;
          }
          // A wave looks at no more candidates than it may pick, so what it
          // sends Redis stays the same size however large the batch.
          const looked = candidates.slice(0, size);
          const wave = await deps.tracker.wave(campaignId, keys, answered, size, looked);
          // The sent count moves with each wave, as the rate (written by the same exchange)
          // does: a batch at a slow pace takes minutes, too long to wait for its end.
          deps.folds.fold(campaign, wave.progress);
          wave.answered.forEach(record);
          candidates = candidates.slice(wave.examined);
          // A wave of recipients all answered already (a batch run again) picks
          // nobody: the next one looks further, until none is left.
          if (wave.picked.length === 0 && (size === 0 || candidates.length === 0)) {
            return wave.progress;
          }
          answered = (await Promise.all(wave.picked.map(sendOne))).filter(
            (result): result is Answered => result !== undefined,
          );
          answered.forEach(record);
          if (accepted) await deps.mailServer.reachable();
        }
      } finally {
        releaseSlots();
      }
    };
    const progress = await sendWaves();

    await deps.store.recordOutcomes(campaignId, round, seq, outcomes);
    await settleRoundIfDone(deps, campaign, keys, progress);
    if (stopped) return 'skipped';
    if (windowClosedAt) return waitForWindow(windowClosedAt);
    if (connectionFailure !== undefined) {
      await deps.mailServer.unreachable(connectionFailure);
      return waitForMailServer();
    }
    if (transientFailures > 0) {
      throw new TransientSendError(
        `${transientFailures} of ${recipients.length} mails not accepted yet: ${lastTransientReason}`,
      );
    }
    deps.logger.debug(
      { campaignId, round, seq, jobId: job.id, recipients: recipients.length },
      'campaign batch sent',
    );
    return 'done';
  };
}
