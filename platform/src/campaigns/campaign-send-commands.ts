import { trusted } from 'mongoose';
import {
  SENDING_STATUSES,
  type CampaignDto,
  type CampaignStatus,
  UNFINISHED_STATUSES,
} from '@agency/contracts';
import { DomainError } from '../domain-error';
import type { Redis } from '../redis-connection';
import { CampaignModel } from './campaign.model';
import { notFoundOrConflict, noCampaign } from './campaign-commands';
import { toCampaignDto } from './campaign-dto';
import { campaignRoundKeys, expireRoundState } from './campaign-keys';

/**
 * The state changes of a send that the API asks for: send, pause, resume,
 * cancel, resend, schedule and unschedule, each a conditional update of the
 * campaign (two clicks cannot both win). Adding the jobs they need is the
 * caller's; where it cannot, the undo here puts the campaign back.
 */

/** A campaign queued for a pass over a round: the dispatch job to add names both. */
export interface QueuedRound {
  campaign: CampaignDto;
  round: number;
  pass: number;
}

const changed = () => new DomainError('CONFLICT', 'The campaign changed; try again');

/** draft → queued. */
export async function queueDraftCampaign(id: string): Promise<CampaignDto> {
  const campaign = await CampaignModel.findOneAndUpdate(
    { _id: id, status: 'draft' },
    { $set: { status: 'queued', queuedAt: new Date() } },
    { returnDocument: 'after' },
  ).lean();
  if (!campaign) return notFoundOrConflict(id, 'Only a draft campaign can be sent');
  return toCampaignDto(campaign);
}

/** Undoes `queueDraftCampaign` when its dispatch could not be added: nothing is half-sent. */
export async function returnQueuedCampaignToDraft(id: string): Promise<void> {
  await CampaignModel.updateOne(
    { _id: id, status: 'queued' },
    { $set: { status: 'draft' }, $unset: { queuedAt: 1 } },
  );
}

/** queued or sending -> paused: batches not yet started wait; those being sent finish. */
export async function pauseCampaign(id: string): Promise<CampaignDto> {
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
 */
export async function resumeCampaign(id: string): Promise<QueuedRound> {
  const campaign = await CampaignModel.findOneAndUpdate(
    { _id: id, status: 'paused' },
    { $set: { status: 'queued', queuedAt: new Date() }, $inc: { pass: 1 } },
    { returnDocument: 'after' },
  ).lean();
  if (!campaign) return notFoundOrConflict(id, 'Only a paused campaign can be resumed');
  return { campaign: toCampaignDto(campaign), round: campaign.round, pass: campaign.pass };
}

/** Undoes `resumeCampaign` when its dispatch could not be added: the campaign stays paused. */
export async function returnResumedCampaignToPaused(id: string): Promise<void> {
  await CampaignModel.updateOne({ _id: id, status: 'queued' }, { $set: { status: 'paused' } });
}

/**
 * Stops for good: nothing more is sent; what was sent stays counted. The
 * round never finishes, so its state in Redis (a field per recipient) is
 * given the lifetime a finished round's gets, or it would stay for ever.
 */
export async function cancelCampaign(
  redis: Redis,
  prefix: string,
  id: string,
): Promise<CampaignDto> {
  const now = new Date();
  const campaign = await CampaignModel.findOneAndUpdate(
    { _id: id, status: trusted({ $in: UNFINISHED_STATUSES }) },
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
export async function startResendRound(id: string): Promise<QueuedRound> {
  const current = await CampaignModel.findById(id).lean();
  if (!current) throw noCampaign();
  if (!RESENDABLE.includes(current.status as CampaignStatus) || current.failedCount === 0) {
    throw new DomainError(
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
  if (!campaign) throw changed();
  return { campaign: toCampaignDto(campaign), round: campaign.round, pass: campaign.pass };
}

const SCHEDULABLE: readonly CampaignStatus[] = ['draft', 'scheduled'];

/** A campaign's schedule before a change: what an undo puts back. */
export interface PreviousSchedule {
  status: string;
  scheduledAt: Date | null;
}

/** draft or scheduled -> scheduled at `scheduledAt` (a reschedule replaces the time). */
export async function scheduleCampaign(
  id: string,
  scheduledAt: Date,
): Promise<{ campaign: CampaignDto; previous: PreviousSchedule }> {
  const current = await CampaignModel.findById(id, { status: 1, scheduledAt: 1 }).lean();
  if (!current) throw noCampaign();
  if (!SCHEDULABLE.includes(current.status as CampaignStatus)) {
    throw new DomainError('CONFLICT', 'Only a draft or a scheduled campaign can be scheduled');
  }
  const campaign = await CampaignModel.findOneAndUpdate(
    { _id: id, status: current.status },
    { $set: { status: 'scheduled', scheduledAt } },
    { returnDocument: 'after' },
  ).lean();
  if (!campaign) throw changed();
  return {
    campaign: toCampaignDto(campaign),
    previous: { status: current.status, scheduledAt: current.scheduledAt ?? null },
  };
}

/** Undoes `scheduleCampaign` when its job could not be added: the campaign is as it was. */
export async function restoreSchedule(id: string, previous: PreviousSchedule): Promise<void> {
  await CampaignModel.updateOne(
    { _id: id, status: 'scheduled' },
    { $set: { status: previous.status, scheduledAt: previous.scheduledAt } },
  );
}

/** scheduled -> draft; answers the time it was scheduled for, whose job is to drop. */
export async function unscheduleCampaign(
  id: string,
): Promise<{ campaign: CampaignDto; scheduledAt: Date | null }> {
  const campaign = await CampaignModel.findOneAndUpdate(
    { _id: id, status: 'scheduled' },
    { $set: { status: 'draft', scheduledAt: null } },
  ).lean();
  if (!campaign) return notFoundOrConflict(id, 'Only a scheduled campaign can be unscheduled');
  return {
    campaign: toCampaignDto({ ...campaign, status: 'draft', scheduledAt: null }),
    scheduledAt: campaign.scheduledAt ?? null,
  };
}
