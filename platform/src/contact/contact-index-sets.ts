import DataLoader from 'dataloader';
import { CONTACT_STATUSES, SERVICE_SLUGS } from '@agency/contracts';
import { contactsIndexInRedisApplies } from '../embedded-store';
import type { Logger } from '../logger';
import type { Redis } from '../redis-connection';
import type { ContactChanges, ContactFacts } from './contact-changes';
import { contactSearchKeys } from './contact-search';

/*
 * The contacts list's index for the embedded store only (the workaround
 * `contactsIndexInRedis` of embedded-store.ts, which says whether it
 * applies): FerretDB reads the whole collection for any sorted
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
 * (contact-index-repair.ts) and marks the index built; until then (or after Redis lost it) the store
 * answers instead. The API reads pages from them (backend's
 * contact-list-index.ts).
 */

export interface ContactIndexKeys {
  time: string;
  status: (status: string) => string;
  service: (service: string) => string;
  search: string;
  built: string;
  /** Where one reconciliation pass keeps its working copies. */
  repairWork: (run: string) => string;
}

export function contactIndexKeys(prefix: string): ContactIndexKeys {
  const base = `${prefix}:contacts:index`;
  return {
    time: `${base}:time`,
    status: (status) => `${base}:time:status:${status}`,
    service: (service) => `${base}:time:service:${service}`,
    search: `${base}:search`,
    built: `${base}:built`,
    repairWork: (run) => `${base}:repair:${run}`,
  };
}

/** Every order set's key, then the search set's. */
export function allSetKeys(keys: ContactIndexKeys): string[] {
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
export function membersOf(contact: ContactFacts, keys: ContactIndexKeys): [string, string][] {
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

export interface ContactIndexSets {
  keys: ContactIndexKeys;
  /** Whether the store needs the index: FerretDB does, MongoDB does not (tests may choose). */
  enabled(): Promise<boolean>;
  /**
   * Keeps the sets current; does nothing on MongoDB. The reconciliation
   * repairs what a change missed (contact-index-repair.ts).
   */
  changes: ContactChanges;
}

export function createContactIndexSets(
  redis: Redis,
  { prefix, logger }: { prefix: string; logger: Logger },
): ContactIndexSets {
  const enabled = contactsIndexInRedisApplies;
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
    // Still listed in its place, by its status and service; no longer found by name or address.
    anonymised: (contact) =>
      write(contact, () => {
        const multi = redis.multi();
        for (const [key, member] of membersOf(contact, keys)) {
          if (key === keys.search) multi.zrem(key, member);
        }
        return multi.exec();
      }),
  };

  return {
    keys,
    enabled,
    changes,
  };
}
