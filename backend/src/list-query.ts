import { trusted, type Model, type SortOrder } from 'mongoose';
import type { ListQuery, Page } from '@agency/contracts';

/** `-createdAt` → `{ createdAt: -1, _id: -1 }`: the id breaks ties so pages never overlap. */
export function sortOf(sort: string): Record<string, SortOrder> {
  const descending = sort.startsWith('-');
  const field = descending ? sort.slice(1) : sort;
  const order: SortOrder = descending ? -1 : 1;
  return field === '_id' ? { _id: order } : { [field]: order, _id: order };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A case-insensitive "contains" over some fields. The search text is escaped,
 * so it is matched literally, and the operators are marked trusted because
 * they are ours (sanitizeFilter would otherwise neutralise them).
 */
export function searchFilter(
  search: string | undefined,
  fields: readonly string[],
): Record<string, unknown> {
  if (!search) return {};
  const pattern = escapeRegExp(search);
  return {
    $or: fields.map((field) => ({ [field]: trusted({ $regex: pattern, $options: 'i' }) })),
  };
}

/** Equality filters from a validated query, leaving out the ones not given. */
export function equalityFilter(
  query: Record<string, unknown>,
  fields: readonly string[],
): Record<string, unknown> {
  const filter: Record<string, unknown> = {};
  for (const field of fields) {
    const value = query[field];
    if (typeof value === 'string') filter[field] = value;
  }
  return filter;
}

/**
 * One page of a collection in the list's order, and how many documents match
 * in all: the two queries every list runs, side by side.
 */
export async function findPage<Doc>(
  model: Model<Doc>,
  filter: Record<string, unknown>,
  query: Pick<ListQuery, 'page' | 'pageSize' | 'sort'>,
): Promise<{ docs: (Doc & { _id: unknown })[]; total: number }> {
  const [docs, total] = await Promise.all([
    model
      .find(filter)
      .sort(sortOf(query.sort))
      .skip(skipOf(query))
      .limit(query.pageSize)
      .lean<(Doc & { _id: unknown })[]>(),
    model.countDocuments(filter),
  ]);
  return { docs, total };
}

export function skipOf(query: Pick<ListQuery, 'page' | 'pageSize'>): number {
  return (query.page - 1) * query.pageSize;
}

export function pageOf<T>(
  items: T[],
  total: number,
  query: Pick<ListQuery, 'page' | 'pageSize'>,
): Page<T> {
  return { items, total, page: query.page, pageSize: query.pageSize };
}

export function isoOrNull(date: Date | null | undefined): string | null {
  return date ? date.toISOString() : null;
}

/** MongoDB's duplicate-key error, raised by a unique index. */
export function duplicateKeyOf(error: unknown): string[] | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, keyPattern, keyValue } = error as {
    code?: unknown;
    keyPattern?: unknown;
    keyValue?: unknown;
  };
  if (code !== 11000) return undefined;
  const keys = (keyPattern ?? keyValue) as Record<string, unknown> | undefined;
  return keys ? Object.keys(keys) : [];
}
