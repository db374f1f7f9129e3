import type { Redis } from '../../redis-connection';
import { PEOPLE_REFRESH_BATCH, refreshPeople, refreshQuietly } from './person-refresh';

/**
 * The addresses whose person must be recomputed, kept in one Redis set.
 *
 * The public writes (an enquiry, a subscription) mark their address here
 * instead of recomputing the person inside the visitor's request: a refresh
 * reads four collections and writes one, which tripled the store's work per
 * enquiry and, at 50 enquiries a second, made the answers wait seconds. The
 * worker takes the marked addresses a batch at a time (one `$in` read per
 * collection for up to PEOPLE_REFRESH_BATCH of them), and the dashboard's
 * people screens take what is left before they read, so staff never see a
 * person behind. SPOP hands each address to one taker only, so any number
 * of workers and API copies share the set without a lock.
 *
 * An address taken and then lost (a process killed between the SPOP and the
 * write, or Redis emptied) leaves its person behind until the daily rebuild
 * (person-rebuild.ts), as a refresh that failed always did.
 */
export interface StalePeople {
  /** Marks the addresses; when Redis cannot take them, refreshes them at once. */
  mark(keys: Iterable<string>): Promise<void>;
  /** Refreshes every marked address, a batch at a time; answers how many. */
  refreshMarked(): Promise<number>;
  /** Forgets a marked address without refreshing it (an erasure, which refreshes it itself). */
  unmark(key: string): Promise<void>;
}

export const stalePeopleKey = (prefix: string): string => `${prefix}:people:stale`;

/** Most batches one `refreshMarked` takes: a bound on how long one call holds the store. */
const MAX_BATCHES_PER_CALL = 50;

export function createStalePeople(redis: Redis, prefix: string): StalePeople {
  const key = stalePeopleKey(prefix);
  return {
    async mark(keys) {
      const addresses = [...new Set(keys)];
      if (addresses.length === 0) return;
      try {
        await redis.sadd(key, ...addresses);
      } catch {
        await refreshQuietly(() => refreshPeople(addresses));
      }
    },
    async refreshMarked() {
      let refreshed = 0;
      for (let batch = 0; batch < MAX_BATCHES_PER_CALL; batch += 1) {
        const taken = await redis.spop(key, PEOPLE_REFRESH_BATCH);
        if (taken.length === 0) break;
        try {
          await refreshPeople(taken);
        } catch (error: unknown) {
          // Put back for the next taker: the store may be back by then.
          await redis.sadd(key, ...taken).catch(() => undefined);
          throw error;
        }
        refreshed += taken.length;
        if (taken.length < PEOPLE_REFRESH_BATCH) break;
      }
      return refreshed;
    },
    async unmark(address) {
      await redis.srem(key, address);
    },
  };
}
