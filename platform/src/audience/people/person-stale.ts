import type { ContactFacts } from '../../contact/contact-changes';
import { normalizeEmail } from '../../mail/email-address';
import type { Redis } from '../../redis-connection';
import {
  PEOPLE_REFRESH_BATCH,
  refreshPeople,
  refreshPeopleWithEnquiries,
  refreshQuietly,
} from './person-refresh';

/**
 * The addresses whose person must be recomputed, kept in Redis.
 *
 * The public writes (an enquiry, a subscription) mark their address here
 * instead of recomputing the person inside the visitor's request: a refresh
 * reads four collections and writes one, which tripled the store's work per
 * enquiry and, at 50 enquiries a second, made the answers wait seconds. The
 * worker takes the marked addresses a batch at a time (one `$in` read per
 * collection for up to PEOPLE_REFRESH_BATCH of them), and the dashboard's
 * people screens take what is left before they read, so staff never see a
 * person behind. SPOP hands each address to one taker only, so any number
 * of workers and API copies share the sets without a lock.
 *
 * An enquiry stored is marked apart, with its facts: a person already in
 * the view takes them in without a read of its records (person-refresh.ts,
 * `refreshPeopleWithEnquiries`), which on the embedded store is the
 * difference between reading one person by `_id` and reading the contacts
 * and subscribers whole. Every other change marks the address for a read
 * of its records.
 *
 * A taker holds a short lease on each address it refreshes, so two takers
 * never write one person from two different reads (the later write would
 * drop what only the earlier one saw); an address leased elsewhere goes
 * back to its set for the next turn.
 *
 * An address taken and then lost (a process killed between the SPOP and the
 * write, or Redis emptied) leaves its person behind until the daily rebuild
 * (person-rebuild.ts), as a refresh that failed always did.
 */
export interface StalePeople {
  /** Marks the addresses; when Redis cannot take them, refreshes them at once. */
  mark(keys: Iterable<string>): Promise<void>;
  /** Marks the address of an enquiry just stored, with its facts; when Redis cannot take them, refreshes it at once. */
  enquiryStored(enquiry: ContactFacts): Promise<void>;
  /** Refreshes every marked address, a batch at a time; answers how many. */
  refreshMarked(): Promise<number>;
  /** Forgets a marked address without refreshing it (an erasure, which refreshes it itself). */
  unmark(key: string): Promise<void>;
}

export const stalePeopleKey = (prefix: string): string => `${prefix}:people:stale`;

/** The keys of the marks, each under the queue prefix. */
export function stalePeopleKeys(prefix: string) {
  const stale = stalePeopleKey(prefix);
  return {
    /** Addresses to refresh from their records. */
    stale,
    /** Addresses with enquiries stored since their last refresh. */
    enquiries: `${stale}:enquiries`,
    /** The facts of those enquiries, a list per address. */
    enquiriesOf: (key: string) => `${stale}:enquiries:${key}`,
    /** The lease of a taker refreshing the address. */
    lease: (key: string) => `${prefix}:people:refreshing:${key}`,
  };
}

/** Most batches one `refreshMarked` takes from each set: a bound on how long one call holds the store. */
const MAX_BATCHES_PER_CALL = 50;

/** How long a lease lasts if its taker dies without giving it back. */
const LEASE_MS = 60_000;

/** Facts as one `JSON.stringify` wrote them, dates as text. */
type StoredFacts = Omit<ContactFacts, 'createdAt'> & { createdAt: string };

function factsOf(text: string): ContactFacts | null {
  try {
    const facts = JSON.parse(text) as StoredFacts;
    const createdAt = new Date(facts.createdAt);
    if (typeof facts.email !== 'string' || Number.isNaN(createdAt.getTime())) return null;
    return { ...facts, createdAt };
  } catch {
    return null;
  }
}

export function createStalePeople(redis: Redis, prefix: string): StalePeople {
  const keys = stalePeopleKeys(prefix);

  /** Leases what it can of `taken`; the rest goes back to `set` for the next turn. */
  async function lease(set: string, taken: readonly string[]): Promise<string[]> {
    const pipeline = redis.pipeline();
    for (const key of taken) pipeline.set(keys.lease(key), '1', 'PX', LEASE_MS, 'NX');
    const replies = (await pipeline.exec()) ?? [];
    const leased = taken.filter((_key, index) => replies[index]?.[1] === 'OK');
    const busy = taken.filter((key) => !leased.includes(key));
    if (busy.length > 0) await redis.sadd(set, ...busy);
    return leased;
  }

  async function release(leased: readonly string[]): Promise<void> {
    if (leased.length > 0) await redis.del(...leased.map(keys.lease)).catch(() => undefined);
  }

  /**
   * Takes the enquiries' facts of these addresses, in one atomic step with
   * their removal: null for an address whose facts do not read back (never
   * written so), which is then read from its records.
   */
  async function takeEnquiries(
    addresses: readonly string[],
  ): Promise<Map<string, ContactFacts[] | null>> {
    const multi = redis.multi();
    for (const key of addresses) {
      multi.lrange(keys.enquiriesOf(key), 0, -1).del(keys.enquiriesOf(key));
    }
    const replies = (await multi.exec()) ?? [];
    const taken = new Map<string, ContactFacts[] | null>();
    addresses.forEach((key, index) => {
      const [error, texts] = replies[index * 2] ?? [];
      if (error) throw error;
      const facts = (texts as string[]).map(factsOf);
      taken.set(key, facts.every(Boolean) ? (facts as ContactFacts[]) : null);
    });
    return taken;
  }

  /** Refreshes the addresses of one batch taken from `set`, those it could lease. */
  async function refreshTaken(
    set: string,
    taken: readonly string[],
    refresh: (leased: string[]) => Promise<unknown>,
  ): Promise<void> {
    const leased = await lease(set, taken);
    try {
      await refresh(leased);
    } catch (error: unknown) {
      // Put back for the next taker, to be read from their records: the store may be back by then.
      if (leased.length > 0) await redis.sadd(keys.stale, ...leased).catch(() => undefined);
      throw error;
    } finally {
      await release(leased);
    }
  }

  async function drain(set: string, refresh: (leased: string[]) => Promise<unknown>) {
    let refreshed = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_CALL; batch += 1) {
      const taken = await redis.spop(set, PEOPLE_REFRESH_BATCH);
      if (taken.length === 0) break;
      await refreshTaken(set, taken, refresh);
      refreshed += taken.length;
      if (taken.length < PEOPLE_REFRESH_BATCH) break;
    }
    return refreshed;
  }

  async function refreshWithEnquiries(addresses: string[]): Promise<void> {
    const taken = await takeEnquiries(addresses);
    // An address with nothing left to take was taken in by an earlier turn.
    const folded = new Map<string, ContactFacts[]>();
    const unreadable: string[] = [];
    for (const [key, facts] of taken) {
      if (facts === null) unreadable.push(key);
      else if (facts.length > 0) folded.set(key, facts);
    }
    await refreshPeopleWithEnquiries(folded);
    await refreshPeople(unreadable);
  }

  return {
    async mark(marked) {
      const addresses = [...new Set(marked)];
      if (addresses.length === 0) return;
      try {
        // A read of the records takes in every enquiry stored, so the facts
        // waiting go: kept, they would bring back one deleted meanwhile.
        const multi = redis
          .multi()
          .sadd(keys.stale, ...addresses)
          .srem(keys.enquiries, ...addresses);
        await multi.del(...addresses.map(keys.enquiriesOf)).exec();
      } catch {
        await refreshQuietly(() => refreshPeople(addresses));
      }
    },
    async enquiryStored(enquiry) {
      const key = normalizeEmail(enquiry.email);
      try {
        await redis
          .multi()
          .rpush(keys.enquiriesOf(key), JSON.stringify(enquiry))
          .sadd(keys.enquiries, key)
          .exec();
      } catch {
        await refreshQuietly(() => refreshPeople([key]));
      }
    },
    async refreshMarked() {
      const fromRecords = await drain(keys.stale, (leased) => refreshPeople(leased));
      const withEnquiries = await drain(keys.enquiries, refreshWithEnquiries);
      return fromRecords + withEnquiries;
    },
    async unmark(address) {
      await redis
        .multi()
        .srem(keys.stale, address)
        .srem(keys.enquiries, address)
        .del(keys.enquiriesOf(address))
        .exec();
    },
  };
}
