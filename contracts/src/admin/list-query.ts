import { object, type ObjectShape } from 'yup';
import { oneOfText, optionalText, queryInteger } from '../validation/fields';

/** Every list is paginated on the server; a page never holds more than this. */
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 20;
/** Far enough for any real list; stops `?page=999999999` scans. */
export const PAGE_MAX = 100_000;
export const SEARCH_MAX_LENGTH = 100;

/** What a list paged by number answers: one page of items and how many match in all. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * How far a list's total can be trusted: `exact` when it comes from the kept
 * counts (or a count that finished), `atLeast` when counting further would
 * have meant reading the whole collection (shown as "N+").
 */
export const TOTAL_KINDS = ['exact', 'atLeast'] as const;
export type TotalKind = (typeof TOTAL_KINDS)[number];

/**
 * What a list paged by keyset answers: one page in the list's order and the
 * positions just before and after it. A position is opaque (`after=` and
 * `before=` take it back); it names the row's sort value and id, so a page
 * costs the same however deep it lies, and rows added meanwhile never shift it.
 */
export interface KeysetPage<T> {
  items: T[];
  total: number;
  totalKind: TotalKind;
  pageSize: number;
  /** The position after this page's last row, or null when nothing follows. */
  next: string | null;
  /** The position before this page's first row, or null on the first page. */
  previous: string | null;
}

/** Long enough for a sort value of any list (a name, a date) and an id, encoded. */
export const CURSOR_MAX_LENGTH = 400;

export interface KeysetListQuery<Sort extends string = string> {
  pageSize: number;
  sort: Sort;
  search?: string;
  /** Rows after this position (the `next` of the page before). */
  after?: string;
  /** Rows before this position (the `previous` of the page after). */
  before?: string;
}

export interface ListQuery<Sort extends string = string> {
  page: number;
  pageSize: number;
  /** A field name, descending when it starts with "-" (e.g. `-createdAt`). */
  sort: Sort;
  search?: string;
}

/** `createdAt` sorts oldest first, `-createdAt` newest first. */
export type SortKey<Field extends string> = Field | `-${Field}`;

export function sortKeys<Field extends string>(fields: readonly Field[]): SortKey<Field>[] {
  return fields.flatMap((field) => [field, `-${field}` as const]);
}

/**
 * The query string of a list: page, pageSize (capped), sort among the
 * resource's sortable fields, a free-text search, plus the resource's filters.
 */
export function listQuerySchema<Field extends string, Filters extends ObjectShape>(options: {
  sortFields: readonly Field[];
  defaultSort: SortKey<Field>;
  filters: Filters;
}) {
  return object({
    page: queryInteger(1, PAGE_MAX).default(1),
    pageSize: queryInteger(1, PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
    sort: oneOfText(sortKeys(options.sortFields)).default(options.defaultSort),
    search: optionalText(SEARCH_MAX_LENGTH),
    ...options.filters,
  });
}

/**
 * The query string of a list paged by keyset: the rows `after` or `before` a
 * position (neither: the first page), pageSize (capped), sort among the
 * resource's sortable fields, a search, plus the resource's filters.
 */
export function keysetListQuerySchema<Field extends string, Filters extends ObjectShape>(options: {
  sortFields: readonly Field[];
  defaultSort: SortKey<Field>;
  filters: Filters;
}) {
  return object({
    pageSize: queryInteger(1, PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
    sort: oneOfText(sortKeys(options.sortFields)).default(options.defaultSort),
    search: optionalText(SEARCH_MAX_LENGTH),
    after: optionalText(CURSOR_MAX_LENGTH),
    before: optionalText(CURSOR_MAX_LENGTH),
    ...options.filters,
  });
}
