import type { Middleware } from 'koa';
import type { StalePeople } from '@agency/platform';

/**
 * Before a people screen reads the view, the addresses the public writes
 * marked since the worker's last pass are recomputed (person-stale.ts), so
 * staff never see a person behind the records they just saw change. When
 * that fails (Redis or the store away), the screen is served as the view
 * stands: the worker's next pass catches up.
 */
export function refreshMarkedPeopleFirst(stale: StalePeople): Middleware {
  return async (ctx, next) => {
    try {
      await stale.refreshMarked();
    } catch (error: unknown) {
      ctx.state.log.warn({ err: error }, 'marked people not refreshed before a read');
    }
    await next();
  };
}
