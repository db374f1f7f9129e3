import DataLoader from 'dataloader';
import { CONTACT_STATUSES, SERVICE_SLUGS } from '@agency/contracts';
import { isEmbeddedStore } from '../embedded-store';
import type { Logger } from '../logger';
import type { Redis } from '../redis-connection';
import type { ContactChanges, ContactFacts } from './contact-changes';
import { contactSearchKeys } from './contact-search';

/*
 * The contacts list's index for the embedded store only (see
 * embedded-store.ts): FerretDB reads the whole collection for any sorted
 * page or search, so there the default order, its status and service
 * filters and the prefix search come from sorted sets in Redis, and the
 * page's rows are then read by `_id`. On MongoDB none of this runs: its
 * indexes serve the same queries.
 *
 * Every member sorts by text (all scores 0): `<createdAt as 15 digits>|<id>`
 * in the order sets, so a set's order is the list's (createdAt, _id) order
 * and a keyset page is one ZRANGE BYLEX from a position; and
 * `<search key>\0<createdAt>|<id>` in the search set, so a prefix is one
 * lexical range. The sets follow every change (`changes`, the API's), and
 * the scheduled reconciliation (the worker's) repairs them from the store
 * and marks the index built; until then (or after Redis lost it) the store
 * answers instead. The API reads pages from them (backend's
 * contact-list-index.ts).
 */

export interface ContactIndexKeys {
  time: string;
  status: (status: string) => string;
  service: (service: string) => string;
  search: string;
  built: string;
}

export function contactIndexKeys(prefix: string): ContactIndexKeys {
  const base = `${prefix}:contacts:index`;
  return {
    time: `${base}:time`,
    status: (status) => `${base}:time:status:${status}`,
    service: (service) => `${base}:time:service:${service}`,
    search: `${base}:search`,
    built: `${base}:built`,
  };
}

/** Every order set's key, then the search set's. */
function allSetKeys(keys: ContactIndexKeys): string[] {
  return [
    keys.time,
    ...CONTACT_STATUSES.map(keys.status),
    ...SERVICE_SLUGS.map(keys.service),
    keys.search,
  ];
}

/** An enquiry's member of the order sets: its place in the (createdAt, _id) order. */
export function orderMember(createdAtMs: number, id: string): string {
  return `${String(createdAtMs).padStart(15, '0')}|${id}`;
}

/** What each set of the index holds for one enquiry. */
function membersOf(contact: ContactFacts, keys: ContactIndexKeys): [string, string][] {
  const member = orderMember(contact.createdAt.getTime(), contact.id);
  return [
    [keys.time, member],
    [keys.status(contact.status), member],
    [keys.service(contact.service), member],
    ...contactSearchKeys(contact).searchTerms.map(
      (term) => [keys.search, `${term}\0${member}`] as [string, string],
    ),
  ];
}

export type IndexSnapshot = Map<string, Set<string>>;

export interface ContactIndexSets {
  keys: ContactIndexKeys;
  /** Whether the store needs the index: FerretDB does, MongoDB does not. */
  enabled(): Promise<boolean>;
  /** Keeps the sets current; does nothing on MongoDB. */
  changes: ContactChanges;
  /** Every set's members, for the reconciliation; undefined on MongoDB. */
  snapshot(): Promise<IndexSnapshot | undefined>;
  /**
   * Brings the sets to what the store holds (`expected`), changing only the
   * members that stayed the same across both snapshots (others are being
   * written meanwhile), then marks the index built.
   */
  repair(
    before: IndexSnapshot,
    after: IndexSnapshot,
    expected: Iterable<ContactFacts>,
  ): Promise<{ added: number; removed: number; busy: number }>;
}

export function createContactIndexSets(
  redis: Redis,
  {
    prefix,
    logger,
    enabled = isEmbeddedStore,
  }: { prefix: string; logger: Logger; enabled?: () => Promise<boolean> },
): ContactIndexSets {
  const keys = contactIndexKeys(prefix);

  async function write(contact: ContactFacts, apply: () => Promise<unknown>) {
    if (!(await enabled())) return;
    try {
      await apply();
    } catch (error: unknown) {
      logger.warn(
        { err: error, contactId: contact.id },
        'the contacts index missed a change; the reconciliation will repair it',
      );
    }
  }

  // Enquiries inserted in one write come back in the same turn of the event
  // loop: they are indexed in one round trip, one ZADD per set.
  const storedTogether = new DataLoader<ContactFacts, true>(
    async (contacts) => {
      const bySet = new Map<string, (string | number)[]>();
      for (const contact of contacts) {
        for (const [key, member] of membersOf(contact, keys)) {
          const members = bySet.get(key) ?? [];
          members.push(0, member);
          bySet.set(key, members);
        }
      }
      const pipeline = redis.pipeline();
      for (const [key, members] of bySet) pipeline.zadd(key, ...members);
      const replies = (await pipeline.exec()) ?? [];
      const failed = replies.find(([error]) => error);
      if (failed?.[0]) throw failed[0];
      return contacts.map(() => true as const);
    },
    { cache: false, maxBatchSize: 200 },
  );

  const changes: ContactChanges = {
    stored: (contact) => write(contact, () => storedTogether.load(contact)),
    statusChanged: (contact, from) =>
      write(contact, () => {
        const member = orderMember(contact.createdAt.getTime(), contact.id);
        return redis
          .multi()
          .zrem(keys.status(from), member)
          .zadd(keys.status(contact.status), 0, member)
          .exec();
      }),
    deleted: (contact) =>
      write(contact, () => {
        const multi = redis.multi();
        for (const [key, member] of membersOf(contact, keys)) multi.zrem(key, member);
        return multi.exec();
      }),
  };

  return {
    keys,
    enabled,
    changes,
    async snapshot() {
      if (!(await enabled())) return undefined;
      const setKeys = allSetKeys(keys);
      const pipeline = redis.pipeline();
      for (const key of setKeys) pipeline.zrangeBuffer(key, 0, -1);
      const replies = (await pipeline.exec()) ?? [];
      return new Map(
        setKeys.map((key, index) => {
          const [error, members] = replies[index] ?? [];
          if (error) throw error;
          return [key, new Set((members as Buffer[]).map((member) => member.toString('utf8')))];
        }),
      );
    },
    async repair(before, after, expected) {
      const wanted: IndexSnapshot = new Map(allSetKeys(keys).map((key) => [key, new Set()]));
      for (const contact of expected) {
        for (const [key, member] of membersOf(contact, keys)) wanted.get(key)?.add(member);
      }
      let added = 0;
      let removed = 0;
      let busy = 0;
      const pipeline = redis.pipeline();
      for (const [key, members] of wanted) {
        const was = before.get(key) ?? new Set<string>();
        const is = after.get(key) ?? new Set<string>();
        const missing: string[] = [];
        const extra: string[] = [];
        for (const member of members) {
          if (is.has(member)) continue;
          if (was.has(member)) busy += 1;
          else missing.push(member);
        }
        for (const member of is) {
          if (members.has(member)) continue;
          if (was.has(member)) extra.push(member);
          else busy += 1;
        }
        for (const chunk of chunks(missing)) {
          pipeline.zadd(key, ...chunk.flatMap((member) => [0, member]));
        }
        for (const chunk of chunks(extra)) pipeline.zrem(key, ...chunk);
        added += missing.length;
        removed += extra.length;
      }
      pipeline.set(keys.built, new Date().toISOString());
      await pipeline.exec();
      return { added, removed, busy };
    },
  };
}

/** Commands of a few hundred arguments each: one huge command would stall Redis. */
function chunks<T>(items: T[], size = 500): T[][] {
  const result: T[][] = [];
  for (let index = 0; index < items.length; index += size) {
    result.push(items.slice(index, index + size));
  }
  return result;
}
