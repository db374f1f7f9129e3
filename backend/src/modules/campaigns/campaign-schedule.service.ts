import type { CampaignDto, CampaignStatus } from '@agency/contracts';
import { CampaignModel, withCampaignLockOrThrow, type Redis } from '@agency/platform';
import { HttpError } from '../../errors';
import { dropSchedule, enqueueSchedule, type CampaignQueue } from '../../queues/campaign-queue';
import { toCampaignDto } from './campaign.service';

const SCHEDULABLE: readonly CampaignStatus[] = ['draft', 'scheduled'];

/** How long a schedule change waits for the worker's start of the same campaign. */
const LOCK_WAIT_MS = 3000;

const unavailable = () =>
  new HttpError('UNAVAILABLE', 'Scheduling is unavailable right now; please try again shortly');

export interface CampaignScheduling {
  /** draft or scheduled -> scheduled at `scheduledAt` (a reschedule replaces the time). */
  schedule(id: string, scheduledAt: Date): Promise<CampaignDto>;
  /** scheduled -> draft. */
  unschedule(id: string): Promise<CampaignDto>;
}

/**
 * Scheduling a campaign: the store says when (`scheduled`, `scheduledAt`),
 * a delayed job in Redis starts it then. Each change holds the campaign's
 * write lock, which the worker's start takes too, so a campaign moved or
 * unscheduled at its very moment is either started or changed, never both.
 */
export function campaignScheduling({
  queue,
  redis,
  prefix,
}: {
  queue: CampaignQueue;
  redis: Redis;
  prefix: string;
}): CampaignScheduling {
  const locked = <T>(id: string, write: () => Promise<T>): Promise<T> =>
    withCampaignLockOrThrow(redis, prefix, id, LOCK_WAIT_MS, write).catch((error: unknown) => {
      if (error instanceof HttpError) throw error;
      throw unavailable();
    });

  return {
    schedule: (id, scheduledAt) =>
      locked(id, async () => {
        const current = await CampaignModel.findById(id, { status: 1, scheduledAt: 1 }).lean();
        if (!current) throw new HttpError('NOT_FOUND', 'No campaign with this id');
        if (!SCHEDULABLE.includes(current.status as CampaignStatus)) {
          throw new HttpError('CONFLICT', 'Only a draft or a scheduled campaign can be scheduled');
        }
        const campaign = await CampaignModel.findOneAndUpdate(
          { _id: id, status: current.status },
          { $set: { status: 'scheduled', scheduledAt } },
          { returnDocument: 'after' },
        ).lean();
        if (!campaign) throw new HttpError('CONFLICT', 'The campaign changed; try again');
        try {
          await enqueueSchedule(queue, id, scheduledAt);
        } catch {
          // Nothing half-done: the campaign is as it was.
          await CampaignModel.updateOne(
            { _id: id, status: 'scheduled' },
            { $set: { status: current.status, scheduledAt: current.scheduledAt ?? null } },
          );
          throw unavailable();
        }
        const previous = current.scheduledAt;
        if (previous && previous.getTime() !== scheduledAt.getTime()) {
          await dropSchedule(queue, id, previous);
        }
        return toCampaignDto(campaign);
      }),

    unschedule: (id) =>
      locked(id, async () => {
        const campaign = await CampaignModel.findOneAndUpdate(
          { _id: id, status: 'scheduled' },
          { $set: { status: 'draft', scheduledAt: null } },
        ).lean();
        if (!campaign) {
          const exists = await CampaignModel.exists({ _id: id });
          if (!exists) throw new HttpError('NOT_FOUND', 'No campaign with this id');
          throw new HttpError('CONFLICT', 'Only a scheduled campaign can be unscheduled');
        }
        if (campaign.scheduledAt) await dropSchedule(queue, id, campaign.scheduledAt);
        return toCampaignDto({ ...campaign, status: 'draft', scheduledAt: null });
      }),
  };
}
