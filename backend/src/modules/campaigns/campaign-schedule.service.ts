import type { CampaignDto } from '@agency/contracts';
import {
  DomainError,
  restoreSchedule,
  scheduleCampaign,
  unscheduleCampaign,
  withCampaignLockOrThrow,
  type Redis,
} from '@agency/platform';
import { HttpError } from '../../errors';
import { dropSchedule, enqueueSchedule, type CampaignQueue } from '../../queues/campaign-queue';

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
      if (error instanceof DomainError) throw error;
      throw unavailable();
    });

  return {
    schedule: (id, scheduledAt) =>
      locked(id, async () => {
        const { campaign, previous } = await scheduleCampaign(id, scheduledAt);
        try {
          await enqueueSchedule(queue, id, scheduledAt);
        } catch {
          // Nothing half-done: the campaign is as it was.
          await restoreSchedule(id, previous);
          throw unavailable();
        }
        const before = previous.scheduledAt;
        if (before && before.getTime() !== scheduledAt.getTime()) {
          await dropSchedule(queue, id, before);
        }
        return campaign;
      }),

    unschedule: (id) =>
      locked(id, async () => {
        const { campaign, scheduledAt } = await unscheduleCampaign(id);
        if (scheduledAt) await dropSchedule(queue, id, scheduledAt);
        return campaign;
      }),
  };
}
