import { createLogger } from '../logger';
import { reconcileStats, type ReconcileReport } from '../modules/stats/store';
import type { TestContext } from './test-context';

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
    logger: createLogger('test', 'silent'),
  });
}
