import {
  createKeptCounts,
  createLogger,
  enqueueNewsletterConfirmations,
  reconcileStats,
  recordQueuedSubscription,
  type KeptCounts,
  type ReconcileReport,
} from '@agency/platform';
import type { TestContext } from './test-context';

const silent = createLogger('test', 'silent');

/** Runs the worker's reconciliation of the kept figures now, on a context's Redis and store. */
export function reconcileNow(
  ctx: Pick<TestContext, 'redis' | 'config'>,
  settleMs = 0,
): Promise<ReconcileReport> {
  return reconcileStats({
    redis: ctx.redis,
    prefix: ctx.config.queuePrefix,
    timeZone: ctx.config.timeZone,
    settleMs,
    logger: silent,
  });
}

/** The kept figures as the worker writes them, on a context's Redis. */
export function keptCountsOf(ctx: Pick<TestContext, 'redis' | 'config'>): KeptCounts {
  return createKeptCounts(ctx.redis, {
    prefix: ctx.config.queuePrefix,
    timeZone: ctx.config.timeZone,
    logger: silent,
  });
}

/**
 * Records the subscription requests the API queued, oldest first, as the
 * worker does: the subscriber written, its figures moved, its mail queued.
 */
export async function recordQueuedSubscriptions(
  ctx: Pick<TestContext, 'redis' | 'config' | 'queues'>,
): Promise<void> {
  const { subscriberChanges } = keptCountsOf(ctx);
  const jobs = await ctx.queues.newsletterRequest.getJobs(['waiting']);
  for (const job of jobs.reverse()) {
    await recordQueuedSubscription(
      job.data,
      (owed) => enqueueNewsletterConfirmations(ctx.queues, [owed]),
      subscriberChanges,
    );
    await job.remove();
  }
}
