import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';
import type { CampaignRecipient, CampaignSendJob, Locale } from '@agency/contracts';
import {
  SENDING_STATUSES,
  appendOutcomeFacts,
  findCampaignForSend,
  findCampaignSendState,
  finishRound,
  foldCounters,
  signUnsubscribeToken,
  type CampaignSendState,
  type CampaignRoundKeys,
  type LedgerOutcome,
  type Logger,
} from '@agency/backend/store';
import type { CampaignTransport } from '../campaigns/campaign-transport';
import { oneClickUnsubscribeUrl, unsubscribePageUrl } from '../mail/newsletter-links';
import { isPermanentSmtpFailure, smtpFailureReason } from '../mail/smtp-failure';
import { compileCampaignMail, localeOf } from '../mail/templates/campaign.template';
import { compileCampaignMime, type CampaignMime } from '../campaigns/campaign-mime';
import { isRoundSettled, type RoundState, type SendLedger } from '../campaigns/send-ledger';

export interface CampaignMailDeps {
  transport: CampaignTransport;
  mailFrom: string;
  siteUrl: string;
  mailLinkSecret: string;
  messageIdDomain: string;
}

export interface CampaignSendDeps extends CampaignMailDeps {
  ledger: SendLedger;
  logger: Logger;
}

export type BatchResult = 'done' | 'skipped';

/** Thrown when some mails of a batch met a passing refusal (4xx, no connection): BullMQ retries the batch. */
export class TransientSendError extends Error {}

/** A campaign compiled once: its templates, then one MIME frame per language as recipients need it. */
export interface CompiledCampaign {
  mimeOf(locale: Locale): CampaignMime;
}

export function compileCampaign(
  campaign: { subject: string; content: string },
  mailFrom: string,
): CompiledCampaign {
  const mail = compileCampaignMail(campaign);
  const frames = new Map<Locale, CampaignMime>();
  return {
    mimeOf(locale) {
      let frame = frames.get(locale);
      if (!frame) {
        frame = compileCampaignMime(mail, locale, mailFrom);
        frames.set(locale, frame);
      }
      return frame;
    },
  };
}

/**
 * One campaign's compiled mail per process. The mail can change only while
 * the campaign is a draft, and every send, resume or resend stamps queuedAt:
 * the compiled mail is kept while queuedAt stays (updatedAt moves with every
 * counter written during the send). Only a miss reads the subject and
 * content: the batches read the campaign's state without them.
 */
function compiledCampaignCache(mailFrom: string) {
  const cache = new Map<string, { queuedAt: number; compiled: CompiledCampaign }>();
  return async (campaign: CampaignSendState): Promise<CompiledCampaign | undefined> => {
    const id = String(campaign._id);
    const queuedAt = campaign.queuedAt?.getTime() ?? 0;
    const hit = cache.get(id);
    if (hit && hit.queuedAt === queuedAt) return hit.compiled;
    const whole = await findCampaignForSend(id);
    if (!whole) return undefined;
    const compiled = compileCampaign(whole, mailFrom);
    if (cache.size > 20) cache.clear();
    cache.set(id, { queuedAt: whole.queuedAt?.getTime() ?? 0, compiled });
    return compiled;
  };
}

/** Stable per recipient and round: a duplicate is recognisable as one at the receiving end. */
export function campaignMessageId(
  campaignId: string,
  round: number,
  key: string,
  domain: string,
): string {
  const digest = createHash('sha1').update(key).digest('hex').slice(0, 20);
  return `<campaign-${campaignId}-r${round}-${digest}@${domain}>`;
}

/**
 * Sends one campaign mail: personalised, with the localised footer and the
 * List-Unsubscribe headers, as a raw message built into the campaign's
 * frame for the recipient's language.
 */
export function sendCampaignMail(
  deps: CampaignMailDeps,
  campaign: CompiledCampaign,
  recipient: Pick<CampaignRecipient, 'email' | 'firstName' | 'locale'>,
  messageId: string,
): Promise<unknown> {
  const locale = localeOf(recipient.locale);
  const token = signUnsubscribeToken(recipient.email, deps.mailLinkSecret);
  const message = campaign.mimeOf(locale).build({
    to: recipient.email,
    values: { firstName: recipient.firstName, email: recipient.email },
    unsubscribePageUrl: unsubscribePageUrl(deps.siteUrl, token, locale),
    listUnsubscribeUrl: oneClickUnsubscribeUrl(deps.siteUrl, token),
    messageId,
  });
  return deps.transport.send(message);
}

interface Settled {
  recipient: CampaignRecipient;
  key: string;
  outcome: LedgerOutcome;
}

/**
 * Sends one batch of a campaign. Before each mail the ledger notes an
 * attempt; once SMTP has answered it notes the outcome (in the same Redis
 * exchange as the next mail's attempt). A batch that runs
 * again (a crash, a retry after a 4xx) skips whoever already has an outcome,
 * so the only mails that can go twice are those in flight at a crash: at
 * most one per batch being sent, and the ledger shows them (attempts > 1).
 * Then the batch's outcomes are appended to the MongoDB ledger, counted once
 * in Redis, and the counters folded into the campaign.
 */
export function campaignSendProcessor(deps: CampaignSendDeps) {
  const compiled = compiledCampaignCache(deps.mailFrom);
  return async (job: Job<CampaignSendJob>): Promise<BatchResult> => {
    const { campaignId, round, recipients } = job.data;
    const campaign = await findCampaignSendState(campaignId);
    // Paused or cancelled: nothing is sent; a resume dispatches what is left again.
    if (!campaign || campaign.round !== round || !SENDING_STATUSES.includes(campaign.status)) {
      return 'skipped';
    }
    const mail = await compiled(campaign);
    // Deleted between the two reads: there is nobody left to send it for.
    if (!mail) return 'skipped';
    const keys = deps.ledger.keys(campaignId, round);
    const known = await deps.ledger.settledOf(
      keys,
      recipients.map((recipient) => recipient.key),
    );
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const settled: Settled[] = [];
    let transientFailures = 0;
    let lastTransientReason = '';

    // The last answered mail's outcome, written with the next mail's attempt.
    let unwritten: Settled | undefined;
    for (const [index, recipient] of recipients.entries()) {
      const already = known[index];
      if (already) {
        settled.push({ recipient, key: recipient.key, outcome: already });
        continue;
      }
      const attempts = await deps.ledger.settleAndStart(keys, unwritten, recipient.key);
      unwritten = undefined;
      const messageId = campaignMessageId(campaignId, round, recipient.key, deps.messageIdDomain);
      let outcome: LedgerOutcome;
      try {
        await sendCampaignMail(deps, mail, recipient, messageId);
        outcome = { state: 'sent', attempts };
      } catch (error) {
        if (!isPermanentSmtpFailure(error) && !lastAttempt) {
          transientFailures += 1;
          lastTransientReason = smtpFailureReason(error);
          continue;
        }
        outcome = { state: 'failed', reason: smtpFailureReason(error), attempts };
      }
      unwritten = { recipient, key: recipient.key, outcome };
      settled.push(unwritten);
    }
    if (unwritten) await deps.ledger.settle(keys, unwritten.key, unwritten.outcome);

    await recordBatch(deps, campaign, keys, settled);
    if (transientFailures > 0) {
      throw new TransientSendError(
        `${transientFailures} of ${recipients.length} mails not accepted yet: ${lastTransientReason}`,
      );
    }
    deps.logger.debug(
      { campaignId, round, jobId: job.id, recipients: recipients.length },
      'campaign batch sent',
    );
    return 'done';
  };
}

/** Ledger facts, then counters, then (when every recipient is settled) the end of the round. */
export async function recordBatch(
  deps: Pick<CampaignSendDeps, 'ledger' | 'logger'>,
  campaign: CampaignSendState,
  keys: CampaignRoundKeys,
  settled: readonly Settled[],
): Promise<RoundState> {
  const campaignId = String(campaign._id);
  await appendOutcomeFacts(campaignId, campaign.round, settled);
  const state = await deps.ledger.record(campaignId, keys, settled);
  await settleRoundIfDone(deps, campaign, keys, state);
  return state;
}

export async function settleRoundIfDone(
  deps: Pick<CampaignSendDeps, 'ledger' | 'logger'>,
  campaign: CampaignSendState,
  keys: CampaignRoundKeys,
  state: RoundState,
): Promise<void> {
  const campaignId = String(campaign._id);
  if (!isRoundSettled(state)) {
    await deps.ledger.writeIfFree(campaignId, () => foldCounters(campaign, state));
    return;
  }
  const status = await deps.ledger.writeInTurn(campaignId, () => finishRound(campaign, state));
  if (status) {
    await deps.ledger.expire(keys);
    deps.logger.info({ campaignId, round: campaign.round, status, ...state }, 'campaign finished');
  }
}
