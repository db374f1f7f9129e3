import type { ContactListQuery, TotalKind } from '@agency/contracts';
import {
  createContactIndexSets,
  orderMember,
  type ContactChanges,
  type Logger,
  type Redis,
} from '@agency/platform';
import { keysetWindow, pageStart, type ListPosition, type SortField } from '../../list-query';

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

export function createContactListIndex(
  redis: Redis,
  options: { prefix: string; logger: Logger; enabled?: () => Promise<boolean> },
): ContactListIndex {
  const sets = createContactIndexSets(redis, options);
  const { keys } = sets;
  const { logger } = options;

  /** The order set a query's filters select, or undefined when it keeps none for them. */
  function orderSet(query: ContactListQuery): string | undefined {
    if (query.mailState || (query.status && query.service)) return undefined;
    if (query.status) return keys.status(query.status);
    if (query.service) return keys.service(query.service);
    return keys.time;
  }

  async function isServed(): Promise<boolean> {
    if (!(await sets.enabled())) return false;
    return (await redis.exists(keys.built)) === 1;
  }

  async function orderedPage(query: ContactListQuery, set: string): Promise<IndexedPage> {
    const start = pageStart(query, CREATED_AT);
    const from = start.after ?? start.before;
    const descending = query.sort.startsWith('-');
    // Reading back from a `before` position runs against the list's order.
    const reverse = descending !== Boolean(start.before);
    const bound = from ? `(${orderMember(Number(from.value), from.id)}` : undefined;
    const limit = query.pageSize + 1;
    const members = reverse
      ? await redis.zrange(set, bound ?? '+', '-', 'BYLEX', 'REV', 'LIMIT', 0, limit)
      : await redis.zrange(set, bound ?? '-', '+', 'BYLEX', 'LIMIT', 0, limit);
    const window = keysetWindow(members, {
      sort: query.sort,
      pageSize: query.pageSize,
      start,
      positionOf: positionOfMember,
    });
    return { ids: window.rows.map(idOfMember), next: window.next, previous: window.previous };
  }

  async function searchedPage(
    query: ContactListQuery,
    set: string,
    prefix: string,
  ): Promise<IndexedPage | undefined> {
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
      ...new Set(
        entries.map((entry) => entry.subarray(entry.lastIndexOf(0) + 1).toString('latin1')),
      ),
    ];
    let kept = matches;
    if (set !== keys.time && matches.length > 0) {
      const scores = await redis.zmscore(set, ...matches);
      kept = matches.filter((_member, index) => scores[index] !== null);
    }
    const descending = query.sort.startsWith('-');
    const start = pageStart(query, CREATED_AT);
    const from = start.after ?? start.before;
    const reverse = descending !== Boolean(start.before);
    const fromMember = from ? orderMember(Number(from.value), from.id) : undefined;
    const ordered = kept
      .filter((member) =>
        fromMember === undefined ? true : reverse ? member < fromMember : member > fromMember,
      )
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (reverse) ordered.reverse();
    const window = keysetWindow(ordered.slice(0, query.pageSize + 1), {
      sort: query.sort,
      pageSize: query.pageSize,
      start,
      positionOf: positionOfMember,
    });
    return {
      ids: window.rows.map(idOfMember),
      next: window.next,
      previous: window.previous,
      total: { total: kept.length, totalKind: 'exact' },
    };
  }

  return {
    changes: sets.changes,
    async page(query, searchPrefix) {
      const set = orderSet(query);
      // It keeps the default order only; any other is the store's.
      if (!set || (query.sort !== 'createdAt' && query.sort !== '-createdAt')) return undefined;
      // Every stored enquiry has a date: a position without one is the store's to refuse.
      const { after, before } = pageStart(query, CREATED_AT);
      if ((after ?? before) && typeof (after ?? before)?.value !== 'number') return undefined;
      try {
        if (!(await isServed())) return undefined;
        return await (searchPrefix
          ? searchedPage(query, set, searchPrefix)
          : orderedPage(query, set));
      } catch (error: unknown) {
        // Slower, but the store itself still answers while Redis does not.
        logger.warn({ err: error }, 'the contacts index did not answer; reading the store');
        return undefined;
      }
    },
  };
}
