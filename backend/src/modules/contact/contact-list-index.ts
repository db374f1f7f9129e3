import type { ContactListQuery, TotalKind } from '@agency/contracts';
import {
  createContactIndexSets,
  orderMember,
  type ContactChanges,
  type Logger,
  type Redis,
  keysetWindow,
  pageStart,
  type ListPosition,
  type SortField,
} from '@agency/platform';

/*
 * The pages the contacts list reads from its index in Redis, on the embedded
 * store only (@agency/platform's contact-index-sets.ts says how the sets are
 * kept and embedded-store.ts why). On MongoDB its indexes serve the same
 * queries (contact-admin.service.ts).
 */

/** A prefix matching more keys than this is answered by the store instead. */
export const INDEX_SEARCH_CAP = 50_000;

const CREATED_AT: Record<string, SortField> = { createdAt: { field: 'createdAt', kind: 'date' } };

function idOfMember(member: string): string {
  return member.slice(member.lastIndexOf('|') + 1);
}

function positionOfMember(member: string): ListPosition {
  const [createdAt = '0', id = ''] = member.split('|');
  return { value: Number(createdAt), id };
}

export interface IndexedPage {
  ids: string[];
  next: string | null;
  previous: string | null;
  /** Only for a search: how many enquiries match. */
  total?: { total: number; totalKind: TotalKind };
}

export interface ContactListIndex {
  /** Keeps the sets current; does nothing on MongoDB. */
  changes: ContactChanges;
  /**
   * The ids of one page, or undefined when the index cannot answer: not the
   * embedded store, not built, an order or a filter it does not keep, or a
   * prefix too common. The caller then asks the store.
   */
  page(query: ContactListQuery, searchPrefix: string): Promise<IndexedPage | undefined>;
}

type IndexKeys = ReturnType<typeof createContactIndexSets>['keys'];

/** The order set a query's filters select, or undefined when the index keeps none for them. */
function orderSetOf(keys: IndexKeys, query: ContactListQuery): string | undefined {
  if (query.mailState || (query.status && query.service)) return undefined;
  if (query.status) return keys.status(query.status);
  if (query.service) return keys.service(query.service);
  return keys.time;
}

/**
 * Where a page starts and which way it reads: reading back from a `before`
 * position runs against the list's order.
 */
function readingOf(query: ContactListQuery) {
  const start = pageStart(query, CREATED_AT);
  const from = start.after ?? start.before;
  const reverse = query.sort.startsWith('-') !== Boolean(start.before);
  const fromMember = from ? orderMember(Number(from.value), from.id) : undefined;
  return { start, reverse, fromMember };
}

/** The page of `members` (one more than a page, read in order), with its neighbours' positions. */
function pageOf(
  query: ContactListQuery,
  start: ReturnType<typeof pageStart>,
  members: string[],
): IndexedPage {
  const window = keysetWindow(members, {
    sort: query.sort,
    pageSize: query.pageSize,
    start,
    positionOf: positionOfMember,
  });
  return { ids: window.rows.map(idOfMember), next: window.next, previous: window.previous };
}

async function orderedPage(
  redis: Redis,
  query: ContactListQuery,
  set: string,
): Promise<IndexedPage> {
  const { start, reverse, fromMember } = readingOf(query);
  const bound = fromMember ? `(${fromMember}` : undefined;
  const limit = query.pageSize + 1;
  const members = reverse
    ? await redis.zrange(set, bound ?? '+', '-', 'BYLEX', 'REV', 'LIMIT', 0, limit)
    : await redis.zrange(set, bound ?? '-', '+', 'BYLEX', 'LIMIT', 0, limit);
  return pageOf(query, start, members);
}

/**
 * The order members whose search keys start with `prefix`, within `set`;
 * undefined when more keys match than INDEX_SEARCH_CAP.
 */
async function searchMatches(
  redis: Redis,
  keys: IndexKeys,
  set: string,
  prefix: string,
): Promise<string[] | undefined> {
  const entries = await redis.zrangeBuffer(
    keys.search,
    Buffer.from(`[${prefix}`),
    Buffer.concat([Buffer.from(`[${prefix}`), Buffer.from([0xff])]),
    'BYLEX',
    'LIMIT',
    0,
    INDEX_SEARCH_CAP + 1,
  );
  if (entries.length > INDEX_SEARCH_CAP) return undefined;
  // After the last NUL: a name may hold one, the position after it never does.
  const matches = [
    ...new Set(entries.map((entry) => entry.subarray(entry.lastIndexOf(0) + 1).toString('latin1'))),
  ];
  if (set === keys.time || matches.length === 0) return matches;
  const scores = await redis.zmscore(set, ...matches);
  return matches.filter((_member, index) => scores[index] !== null);
}

async function searchedPage(
  redis: Redis,
  keys: IndexKeys,
  query: ContactListQuery,
  set: string,
  prefix: string,
): Promise<IndexedPage | undefined> {
  const kept = await searchMatches(redis, keys, set, prefix);
  if (!kept) return undefined;
  const { start, reverse, fromMember } = readingOf(query);
  const ordered = kept
    .filter((member) =>
      fromMember === undefined ? true : reverse ? member < fromMember : member > fromMember,
    )
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (reverse) ordered.reverse();
  return {
    ...pageOf(query, start, ordered.slice(0, query.pageSize + 1)),
    total: { total: kept.length, totalKind: 'exact' },
  };
}

/** Whether the index may answer this query at all (its order, a dated position). */
function isIndexedQuery(query: ContactListQuery): boolean {
  // It keeps the default order only; any other is the store's.
  if (query.sort !== 'createdAt' && query.sort !== '-createdAt') return false;
  // Every stored enquiry has a date: a position without one is the store's to refuse.
  const { after, before } = pageStart(query, CREATED_AT);
  return !(after ?? before) || typeof (after ?? before)?.value === 'number';
}

export function createContactListIndex(
  redis: Redis,
  options: { prefix: string; logger: Logger },
): ContactListIndex {
  const sets = createContactIndexSets(redis, options);
  const { keys } = sets;

  async function isServed(): Promise<boolean> {
    if (!(await sets.enabled())) return false;
    return (await redis.exists(keys.built)) === 1;
  }

  return {
    changes: sets.changes,
    async page(query, searchPrefix) {
      const set = orderSetOf(keys, query);
      if (!set || !isIndexedQuery(query)) return undefined;
      try {
        if (!(await isServed())) return undefined;
        return await (searchPrefix
          ? searchedPage(redis, keys, query, set, searchPrefix)
          : orderedPage(redis, query, set));
      } catch (error: unknown) {
        // Slower, but the store itself still answers while Redis does not.
        options.logger.warn({ err: error }, 'the contacts index did not answer; reading the store');
        return undefined;
      }
    },
  };
}
