import { Types, trusted, type Model, type SortOrder } from 'mongoose';
import {
  isWithinDateYears,
  type KeysetListQuery,
  type KeysetPage,
  type ListQuery,
  type Page,
  type TotalKind,
} from '@agency/contracts';
import { DomainError } from './domain-error';

/** `-createdAt` → `{ createdAt: -1, _id: -1 }`: the id breaks ties so pages never overlap. */
export function sortOf(sort: string): Record<string, SortOrder> {
  const descending = sort.startsWith('-');
  const field = descending ? sort.slice(1) : sort;
  const order: SortOrder = descending ? -1 : 1;
  return field === '_id' ? { _id: order } : { [field]: order, _id: order };
}

export function escapeRegExp(text: string): string {
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

/* ---------------------------------------------------------------------------
 * Keyset pages: the rows after (or before) a position in the list's order,
 * where a position is the sort value and the id of a row. A page is one
 * index range read on MongoDB, however deep it lies.
 * ------------------------------------------------------------------------- */

/** How a list orders by one of its sort keys: the stored field and its values' kind. */
export interface SortField {
  field: string;
  kind: 'date' | 'text' | 'number';
}

/** A row's place in an order: its sort value (a date as epoch ms) and its id. */
export interface ListPosition {
  value: string | number | null;
  id: string;
}

const ID_PATTERN = /^[0-9a-f]{24}$/;
const VALUE_MAX_LENGTH = 1000;

/** The opaque text of a position in the order `sort`, as `next` and `previous` carry it. */
export function encodeCursor(sort: string, position: ListPosition): string {
  return Buffer.from(JSON.stringify([sort, position.value, position.id])).toString('base64url');
}

function decodeCursor(text: string, sort: string, kind: SortField['kind']): ListPosition | null {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(decoded) || decoded.length !== 3) return null;
  const [cursorSort, value, id] = decoded as unknown[];
  if (cursorSort !== sort || typeof id !== 'string' || !ID_PATTERN.test(id)) return null;
  if (value === null) return { value, id };
  const fits =
    kind === 'text'
      ? typeof value === 'string' && value.length <= VALUE_MAX_LENGTH
      : typeof value === 'number' &&
        Number.isFinite(value) &&
        (kind !== 'date' || (Number.isInteger(value) && isWithinDateYears(value)));
  return fits ? { value: value as string | number, id } : null;
}

const CURSOR_REFUSED = 'Not a position in this list in this order; start again from the first page';

/** The field and direction of a sort key such as `-createdAt`. */
export function sortFieldOf(
  sort: string,
  fields: Readonly<Record<string, SortField>>,
): SortField & { direction: 1 | -1 } {
  const descending = sort.startsWith('-');
  const spec = fields[descending ? sort.slice(1) : sort];
  // The query schema only lets the list's own sort keys through.
  if (!spec) throw new Error(`no sort field for ${sort}`);
  return { ...spec, direction: descending ? -1 : 1 };
}

/**
 * Where a page starts: after one position, before one, or at the start of
 * the list. A position from another list or order, or a forged one, is a 400
 * naming the parameter.
 */
export function pageStart(
  query: Pick<KeysetListQuery, 'sort' | 'after' | 'before'>,
  fields: Readonly<Record<string, SortField>>,
): { after?: ListPosition; before?: ListPosition } {
  if (query.after && query.before) {
    throw new DomainError('VALIDATION_FAILED', 'Some fields are invalid', {
      before: 'Give either after or before, not both',
    });
  }
  const { kind } = sortFieldOf(query.sort, fields);
  const parse = (name: 'after' | 'before', text: string) => {
    const position = decodeCursor(text, query.sort, kind);
    if (!position) {
      throw new DomainError('VALIDATION_FAILED', 'Some fields are invalid', {
        [name]: CURSOR_REFUSED,
      });
    }
    return position;
  };
  if (query.after) return { after: parse('after', query.after) };
  if (query.before) return { before: parse('before', query.before) };
  return {};
}

function storedValue(value: ListPosition['value'], kind: SortField['kind']): unknown {
  return kind === 'date' && typeof value === 'number' ? new Date(value) : value;
}

/**
 * The rows strictly past `from` when reading in `direction`: a greater (or,
 * descending, smaller) sort value, or the same value and a greater (smaller)
 * id. Missing values sort first ascending and last descending, as MongoDB
 * orders them. The operators are ours, so they are marked trusted.
 */
function pastPosition(
  { field, kind }: SortField,
  direction: 1 | -1,
  from: ListPosition,
): Record<string, unknown> {
  const beyond = direction === 1 ? '$gt' : '$lt';
  const id = trusted({ [beyond]: new Types.ObjectId(from.id) });
  if (from.value === null) {
    return direction === 1
      ? { $or: [{ [field]: null, _id: id }, { [field]: trusted({ $ne: null }) }] }
      : { [field]: null, _id: id };
  }
  const value = storedValue(from.value, kind);
  const after: Record<string, unknown>[] = [
    { [field]: trusted({ [beyond]: value }) },
    { [field]: value, _id: id },
  ];
  if (direction === -1) after.push({ [field]: null });
  return { $or: after };
}

/** The position of a stored row in an order on `field`. */
export function positionOfRow(
  row: { _id: unknown } & Record<string, unknown>,
  { field }: SortField,
): ListPosition {
  const value = row[field];
  return {
    value:
      value instanceof Date
        ? value.getTime()
        : typeof value === 'string' || typeof value === 'number'
          ? value
          : null,
    id: String(row._id),
  };
}

/** One page's rows, in the list's order, and the positions around it. */
export interface KeysetWindow<Row> {
  rows: Row[];
  next: string | null;
  previous: string | null;
}

/**
 * Shapes `pageSize + 1` rows read from `start` into a page: the extra row
 * only tells whether more lie that way. Rows read `before` a position come
 * in reverse order and are turned back.
 */
export function keysetWindow<Row>(
  read: Row[],
  {
    sort,
    pageSize,
    start,
    positionOf,
  }: {
    sort: string;
    pageSize: number;
    start: { after?: ListPosition; before?: ListPosition };
    positionOf: (row: Row) => ListPosition;
  },
): KeysetWindow<Row> {
  const more = read.length > pageSize;
  const rows = read.slice(0, pageSize);
  if (start.before) rows.reverse();
  const first = rows[0];
  const last = rows.at(-1);
  const cursor = (row: Row | undefined) => (row ? encodeCursor(sort, positionOf(row)) : null);
  if (start.before) {
    return { rows, previous: more ? cursor(first) : null, next: cursor(last) };
  }
  return { rows, next: more ? cursor(last) : null, previous: start.after ? cursor(first) : null };
}

/**
 * One keyset page of a collection in the list's order: one range read of
 * `pageSize + 1` documents that an index on (sort field, `_id`) serves.
 */
export async function findKeysetPage<Doc>(
  model: Model<Doc>,
  filter: Record<string, unknown>,
  query: Pick<KeysetListQuery, 'sort' | 'pageSize' | 'after' | 'before'>,
  fields: Readonly<Record<string, SortField>>,
): Promise<KeysetWindow<Doc & { _id: unknown }>> {
  const sortField = sortFieldOf(query.sort, fields);
  const start = pageStart(query, fields);
  const from = start.after ?? start.before;
  const reading = start.before ? (-sortField.direction as 1 | -1) : sortField.direction;
  const docs = await model
    .find(from ? { $and: [filter, pastPosition(sortField, reading, from)] } : filter)
    .sort({ [sortField.field]: reading, _id: reading })
    .limit(query.pageSize + 1)
    .lean<(Doc & { _id: unknown })[]>();
  return keysetWindow(docs, {
    sort: query.sort,
    pageSize: query.pageSize,
    start,
    positionOf: (doc) =>
      positionOfRow(doc as { _id: unknown } & Record<string, unknown>, sortField),
  });
}

/**
 * How many documents match, counting no further than `cap`: past it the
 * answer is "cap+" rather than a read of every match.
 */
export async function countUpTo<Doc>(
  model: Model<Doc>,
  filter: Record<string, unknown>,
  cap: number,
): Promise<{ total: number; totalKind: TotalKind }> {
  const counted = await model.countDocuments(filter).limit(cap + 1);
  return counted > cap
    ? { total: cap, totalKind: 'atLeast' }
    : { total: counted, totalKind: 'exact' };
}

export function keysetPageOf<T>(
  items: T[],
  window: Pick<KeysetWindow<unknown>, 'next' | 'previous'>,
  { total, totalKind }: { total: number; totalKind: TotalKind },
  pageSize: number,
): KeysetPage<T> {
  return { items, total, totalKind, pageSize, next: window.next, previous: window.previous };
}

/** Documents whose `field` (a normalised key, or keys) starts with `prefix`: an index range. */
export function prefixFilter(field: string, prefix: string): Record<string, unknown> {
  return { [field]: trusted({ $regex: `^${escapeRegExp(prefix)}` }) };
}
