import { object, type ObjectShape } from 'yup';
import { oneOfText, optionalText, queryInteger } from '../validation/fields';

/** Every list is paginated on the server; a page never holds more than this. */
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 20;
/** Far enough for any real list; stops `?page=999999999` scans. */
export const PAGE_MAX = 100_000;
export const SEARCH_MAX_LENGTH = 100;

/** What every list answers: one page of items and how many match in all. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
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
