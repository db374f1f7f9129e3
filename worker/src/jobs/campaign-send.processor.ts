import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';
import type { CampaignRecipient, CampaignSendJob } from '@agency/contracts';
import {
  SENDING_STATUSES,
  appendOutcomeFacts,
  findCampaignForSend,
  finishRound,
  foldCounters,
  signUnsubscribeToken,
  type CampaignForSend,
  type CampaignRoundKeys,
  type LedgerOutcome,
  type Logger,
} from '@agency/backend/store';
import type { MailTransport } from '../mail/transport';
import { listUnsubscribeHeaders, unsubscribePageUrl } from '../mail/newsletter-links';
import { isPermanentSmtpFailure, smtpFailureReason } from '../mail/smtp-failure';
import {
  compileCampaignMail,
  localeOf,
  type CompiledCampaignMail,
} from '../mail/templates/campaign.template';
import { isRoundSettled, type RoundState, type SendLedger } from '../campaigns/send-ledger';

export interface CampaignMailDeps {
  transport: MailTransport;
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

/** One campaign's compiled mail per process, rebuilt if the campaign changes (it cannot once queued). */
function compiledMailCache() {
  const cache = new Map<string, { updatedAt: number; mail: CompiledCampaignMail }>();
  return (campaign: CampaignForSend): CompiledCampaignMail => {
    const id = String(campaign._id);
    const updatedAt = campaign.updatedAt.getTime();
    const hit = cache.get(id);
    if (hit && hit.updatedAt === updatedAt) return hit.mail;
    const mail = compileCampaignMail(campaign);
    if (cache.size > 20) cache.clear();
    cache.set(id, { updatedAt, mail });
    return mail;
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

/** Sends one campaign mail: personalised, with the localised footer and the List-Unsubscribe headers. */
export function sendCampaignMail(
  deps: CampaignMailDeps,
  mail: CompiledCampaignMail,
  recipient: Pick<CampaignRecipient, 'email' | 'firstName' | 'locale'>,
  messageId: string,
): Promise<unknown> {
  const locale = localeOf(recipient.locale);
  const token = signUnsubscribeToken(recipient.email, deps.mailLinkSecret);
  const rendered = mail.render(
    locale,
    { firstName: recipient.firstName, email: recipient.email },
    unsubscribePageUrl(deps.siteUrl, token, locale),
  );
  return deps.transport.sendMail({
    from: deps.mailFrom,
    to: recipient.email,
    subject: rendered.subject,
    text: rendered.text,
    html: rendered.html,
    messageId,
    ...listUnsubscribeHeaders(deps.siteUrl, token),
  });
}

interface Settled {
  recipient: CampaignRecipient;
  key: string;
  outcome: LedgerOutcome;
}

/**
 * Sends one batch of a campaign. Before each mail the ledger notes an
 * attempt; as soon as SMTP answers it notes the outcome. A batch that runs
 * again (a crash, a retry after a 4xx) skips whoever already has an outcome,
 * so the only mails that can go twice are those in flight at a crash: at
 * most one per batch being sent, and the ledger shows them (attempts > 1).
 * Then the batch's outcomes are appended to the MongoDB ledger, counted once
 * in Redis, and the counters folded into the campaign.
 */
export function campaignSendProcessor(deps: CampaignSendDeps) {
  const compiled = compiledMailCache();
  return async (job: Job<CampaignSendJob>): Promise<BatchResult> => {
    const { campaignId, round, recipients } = job.data;
    const campaign = await findCampaignForSend(campaignId);
    // Paused or cancelled: nothing is sent; a resume dispatches what is left again.
    if (!campaign || campaign.round !== round || !SENDING_STATUSES.includes(campaign.status)) {
      return 'skipped';
    }
    const keys = deps.ledger.keys(campaignId, round);
    const known = await deps.ledger.settledOf(
      keys,
      recipients.map((recipient) => recipient.key),
    );
    const mail = compiled(campaign);
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    const settled: Settled[] = [];
    let transientFailures = 0;
    let lastTransientReason = '';

    for (const [index, recipient] of recipients.entries()) {
      const already = known[index];
      if (already) {
        settled.push({ recipient, key: recipient.key, outcome: already });
        continue;
      }
      const attempts = await deps.ledger.startAttempt(keys, recipient.key);
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
      await deps.ledger.settle(keys, recipient.key, outcome);
      settled.push({ recipient, key: recipient.key, outcome });
    }

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
  campaign: CampaignForSend,
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
  campaign: CampaignForSend,
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
