import type { Logger, StalePeople } from '@agency/platform';

/** How often a worker takes the addresses the public writes marked (person-stale.ts). */
export const MARKED_PEOPLE_EVERY_MS = 1000;

export interface MarkedPeopleRefresh {
  /** Stops the passes, once the one running (if any) has ended. */
  close(): Promise<void>;
}

/**
 * Recomputes, every `everyMs`, the people of the addresses that enquiries
 * and subscriptions marked. Every worker runs it: SPOP gives each address
 * to one of them, and an idle pass costs one Redis call. A pass that fails
 * (the store away) puts its addresses back and is logged; the next one
 * tries again.
 */
export function startMarkedPeopleRefresh({
  stalePeople,
  logger,
  everyMs = MARKED_PEOPLE_EVERY_MS,
}: {
  stalePeople: StalePeople;
  logger: Logger;
  everyMs?: number;
}): MarkedPeopleRefresh {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const pass = async () => {
    try {
      const refreshed = await stalePeople.refreshMarked();
      if (refreshed > 0) logger.debug({ refreshed }, 'marked people refreshed');
    } catch (error: unknown) {
      logger.warn({ err: error }, 'marked people not refreshed; the next pass will try again');
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = pass().finally(schedule);
    }, everyMs);
    timer.unref();
  };
  schedule();

  return {
    async close() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
