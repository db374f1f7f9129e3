import { Types, trusted } from 'mongoose';
import type {
  CampaignDto,
  CampaignProgressDto,
  CampaignRecipientDto,
  CampaignRecipientQuery,
  CampaignStatus,
  LedgerState,
  Locale,
  MailEventKind,
  Page,
  RecipientMailEventDto,
  SendingWindow,
} from '@agency/contracts';
import { SENDING_STATUSES, windowStateAt } from '@agency/contracts';
import { HttpError } from '../../errors';
import { isoOrNull, pageOf, skipOf } from '../../list-query';
import {
  enqueueRoundDispatch,
  enqueueTestSend,
  type CampaignQueue,
} from '../../queues/campaign-queue';
import {
  type Redis,
  CampaignModel,
  MailEventModel,
  normalizeEmail,
  readLedgerPage,
  campaignRateKey,
  campaignRoundKeys,
  expireRoundState,
  withCampaignLockOrThrow,
} from '@agency/platform';
import { toCampaignDto } from './campaign.service';

async function notFoundOrConflict(id: string, conflict: string): Promise<never> {
  const exists = await CampaignModel.exists({ _id: id });
  if (!exists) throw new HttpError('NOT_FOUND', 'No campaign with this id');
  throw new HttpError('CONFLICT', conflict);
}

const unavailable = () =>
  new HttpError('UNAVAILABLE', 'Sending is unavailable right now; please try again shortly');

/** queued or sending -> paused: batches not yet started wait; those being sent finish. */
async function pause(id: string): Promise<CampaignDto> {
  const campaign = await CampaignModel.findOneAndUpdate(
    { _id: id, status: trusted({ $in: SENDING_STATUSES }) },
    { $set: { status: 'paused', pausedAt: new Date() } },
    { returnDocument: 'after' },
  ).lean();
  if (!campaign) return notFoundOrConflict(id, 'Only a campaign being sent can be paused');
  return toCampaignDto(campaign);
}

/**
 * paused -> queued, as a new pass over the round: its dispatch streams the
 * recipients again and the send ledger skips whoever already has an outcome.
 * If Redis cannot take the dispatch the campaign stays paused.
 */
async function resume(queue: CampaignQueue, id: string): Promise<CampaignDto> {
  const campaign = await CampaignModel.findOneAndUpdate(
    { _id: id, status: 'paused' },
    { $set: { status: 'queued', queuedAt: new Date() }, $inc: { pass: 1 } },
    { returnDocument: 'after' },
  ).lean();
  if (!campaign) return notFoundOrConflict(id, 'Only a paused campaign can be resumed');
  try {
    await enqueueRoundDispatch(queue, id, campaign.round, campaign.pass);
  } catch {
    await CampaignModel.updateOne({ _id: id, status: 'queued' }, { $set: { status: 'paused' } });
    throw unavailable();
  }
  return toCampaignDto(campaign);
}

/**
 * Stops for good: nothing more is sent; what was sent stays counted. The
 * round never finishes, so its state in Redis (a field per recipient) is
 * given the lifetime a finished round's gets, or it would stay for ever.
 */
async function cancel(redis: Redis, prefix: string, id: string): Promise<CampaignDto> {
  const now = new Date();
  const campaign = await CampaignModel.findOneAndUpdate(
    { _id: id, status: trusted({ $in: ['queued', 'sending', 'paused'] }) },
    { $set: { status: 'cancelled', cancelledAt: now, finishedAt: now } },
    { returnDocument: 'after' },
  ).lean();
  if (!campaign) return notFoundOrConflict(id, 'Only a campaign being sent can be cancelled');
  // The campaign is cancelled whatever Redis answers: if it cannot take the
  // lifetime now, the state stays, as it did before cancelling.
  await expireRoundState(redis, campaignRoundKeys(prefix, id, campaign.round)).catch(
    () => undefined,
  );
  return toCampaignDto(campaign);
}

const RESENDABLE: readonly CampaignStatus[] = ['sent', 'failed'];

/**
 * A new round for the recipients whose mail failed: the campaign is queued
 * again, its failed count starts from zero and the sent count carries over.
 */
async function resend(queue: CampaignQueue, id: string): Promise<CampaignDto> {
  const current = await CampaignModel.findById(id).lean();
  if (!current) throw new HttpError('NOT_FOUND', 'No campaign with this id');
  if (!RESENDABLE.includes(current.status as CampaignStatus) || current.failedCount === 0) {
    throw new HttpError(
      'CONFLICT',
      'Only a finished campaign with failed recipients can be resent',
    );
  }
  const campaign = await CampaignModel.findOneAndUpdate(
    { _id: id, status: current.status, round: current.round },
    {
      $set: {
        status: 'queued',
        queuedAt: new Date(),
        round: current.round + 1,
        pass: 1,
        roundBaseSent: current.sentCount,
        failedCount: 0,
        countersVersion: 0,
      },
      $unset: { finishedAt: 1 },
    },
    { returnDocument: 'after' },
  ).lean();
  if (!campaign) throw new HttpError('CONFLICT', 'The campaign changed; try again');
  try {
    await enqueueRoundDispatch(queue, id, campaign.round, campaign.pass);
  } catch {
    // The dispatch is re-added by the worker's recovery pass; say so rather than undo.
    throw unavailable();
  }
  return toCampaignDto(campaign);
}

export interface CampaignControls {
  pause(id: string): Promise<CampaignDto>;
  resume(id: string): Promise<CampaignDto>;
  cancel(id: string): Promise<CampaignDto>;
  resendToFailed(id: string): Promise<CampaignDto>;
}

/** How long a control waits for the worker's write of the same campaign to finish. */
const CONTROL_LOCK_WAIT_MS = 3000;

/**
 * The sending controls, each holding the campaign's write lock so that a
 * worker's progress write cannot undo it on the embedded store.
 */
export function campaignControls({
  queue,
  redis,
  prefix,
}: {
  queue: CampaignQueue;
  redis: Redis;
  prefix: string;
}): CampaignControls {
  const locked =
    (write: (id: string) => Promise<CampaignDto>) =>
    async (id: string): Promise<CampaignDto> => {
      try {
        return await withCampaignLockOrThrow(redis, prefix, id, CONTROL_LOCK_WAIT_MS, () =>
          write(id),
        );
      } catch (error) {
        if (error instanceof HttpError) throw error;
        throw unavailable();
      }
    };
  return {
    pause: locked(pause),
    resume: locked((id) => resume(queue, id)),
    cancel: locked((id) => cancel(redis, prefix, id)),
    resendToFailed: locked((id) => resend(queue, id)),
  };
}

export async function sendTestMail(
  queue: CampaignQueue,
  id: string,
  email: string,
  locale?: Locale,
): Promise<void> {
  if (!(await CampaignModel.exists({ _id: id }))) {
    throw new HttpError('NOT_FOUND', 'No campaign with this id');
  }
  try {
    await enqueueTestSend(queue, { campaignId: id, email, ...(locale ? { locale } : {}) });
  } catch {
    throw unavailable();
  }
}

const RATE_WINDOW_SECONDS = 60;

/** Recipients settled per second over the last minute (or since the start, if sooner). */
async function rateOf(
  redis: Redis,
  prefix: string,
  id: string,
  startedAt: Date | null | undefined,
): Promise<number> {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  const seconds = Array.from({ length: RATE_WINDOW_SECONDS }, (_, back) => second - back);
  let counts: (string | null)[];
  try {
    counts = await redis.mget(seconds.map((at) => campaignRateKey(prefix, id, at)));
  } catch {
    return 0;
  }
  const settled = counts.reduce((sum, count) => sum + Number(count ?? 0), 0);
  const windowStart = now - RATE_WINDOW_SECONDS * 1000;
  const since = startedAt ? Math.max(startedAt.getTime(), windowStart) : windowStart;
  const elapsed = Math.max((now - since) / 1000, 1);
  return Math.round((settled / elapsed) * 10) / 10;
}

/** While a campaign being sent is outside its window: when the window opens again. */
function windowOpensAt(
  window: SendingWindow | null | undefined,
  timeZone: string,
  active: boolean,
): string | null {
  if (!active || !window) return null;
  const state = windowStateAt(window, timeZone, new Date());
  return state.open ? null : state.opensAt.toISOString();
}

export async function campaignProgress(
  redis: Redis,
  prefix: string,
  id: string,
  timeZone: string,
): Promise<CampaignProgressDto> {
  const campaign = await CampaignModel.findById(id, { content: 0, translations: 0 }).lean();
  if (!campaign) throw new HttpError('NOT_FOUND', 'No campaign with this id');
  const settled = campaign.sentCount + campaign.failedCount;
  const active = SENDING_STATUSES.includes(campaign.status as CampaignStatus);
  return {
    id,
    status: campaign.status as CampaignStatus,
    total: campaign.total,
    sentCount: campaign.sentCount,
    failedCount: campaign.failedCount,
    pendingCount: Math.max(campaign.total - settled, 0),
    percent: campaign.total > 0 ? Math.round((settled / campaign.total) * 1000) / 10 : 0,
    ratePerSecond: active ? await rateOf(redis, prefix, id, campaign.startedAt) : 0,
    windowOpensAt: windowOpensAt(campaign.sendingWindow as SendingWindow | null, timeZone, active),
    round: campaign.round,
    startedAt: isoOrNull(campaign.startedAt),
    finishedAt: isoOrNull(campaign.finishedAt),
  };
}

/**
 * The latest bounce or complaint each address of a page brought back from
 * this campaign: a few reads of a small collection.
 */
async function mailEventsOf(
  campaignId: string,
  emails: readonly string[],
): Promise<Map<string, RecipientMailEventDto>> {
  const events = await MailEventModel.find({
    campaign: new Types.ObjectId(campaignId),
    key: trusted({ $in: [...new Set(emails.map(normalizeEmail))] }),
  }).lean();
  const latest = new Map<string, RecipientMailEventDto>();
  for (const event of events) {
    const known = latest.get(event.key);
    if (known && known.at >= event.at.toISOString()) continue;
    latest.set(event.key, {
      kind: event.kind as MailEventKind,
      at: event.at.toISOString(),
      provider: event.provider as RecipientMailEventDto['provider'],
      detail: event.detail ?? null,
    });
  }
  return latest;
}

/**
 * One page of the ledger: `failed` lists the current round's failures (with
 * the server's reply), `sent` every delivery of every round, `pending` the
 * current round's recipients still without an outcome.
 */
export async function listCampaignRecipients(
  id: string,
  query: CampaignRecipientQuery,
): Promise<Page<CampaignRecipientDto>> {
  const campaign = await CampaignModel.findById(id, { round: 1 }).lean();
  if (!campaign) throw new HttpError('NOT_FOUND', 'No campaign with this id');
  const { lines, total } = await readLedgerPage(id, {
    state: query.state ?? 'failed',
    round: campaign.round,
    descending: query.sort.startsWith('-'),
    skip: skipOf(query),
    limit: query.pageSize,
  });
  const eventOf = await mailEventsOf(
    id,
    lines.map(({ email }) => email),
  );
  return pageOf(
    lines.map((line) => ({
      email: line.email,
      state: (line.state ?? 'pending') as LedgerState,
      reason: line.reason ?? null,
      attempts: line.attempts ?? 0,
      round: line.round ?? campaign.round,
      // A recipient still owed shows when its batch was queued.
      at: (line.at ?? line.queuedAt ?? new Date()).toISOString(),
      mailEvent: eventOf.get(normalizeEmail(line.email)) ?? null,
    })),
    total,
    query,
  );
}
