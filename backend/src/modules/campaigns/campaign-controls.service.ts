import { trusted } from 'mongoose';
import type { CampaignDto, CampaignStatus, Locale } from '@agency/contracts';
import { SENDING_STATUSES } from '@agency/contracts';
import { HttpError } from '../../errors';
import {
  enqueueRoundDispatch,
  enqueueTestSend,
  type CampaignQueue,
} from '../../queues/campaign-queue';
import {
  type Redis,
  CampaignModel,
  campaignRoundKeys,
  expireRoundState,
  withCampaignLockOrThrow,
} from '@agency/platform';
import { toCampaignDto } from './campaign.service';

/**
 * The send controls: send, pause, resume, cancel and resend, each a
 * conditional status change on the campaign (and its round's state in
 * Redis), under the campaign's lock. The progress and the recipients'
 * pages are read in campaign-progress.service and campaign-recipients.service.
 */
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
