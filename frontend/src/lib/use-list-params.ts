import { PAGE_SIZE_MAX } from '@agency/contracts';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';

/** The page sizes the admin lists offer (the API allows up to PAGE_SIZE_MAX). */
export const PAGE_SIZES = [10, 25, 50, 100] as const;

export interface ListParamsOptions<Filter extends string> {
  /** Fields the API sorts by; `-field` sorts descending. */
  sortFields: readonly string[];
  defaultSort: string;
  defaultPageSize?: number;
  filters?: readonly Filter[];
}

export interface ListParams<Filter extends string> {
  page: number;
  pageSize: number;
  sort: string;
  search: string;
  filters: Partial<Record<Filter, string>>;
  /** What the list endpoint takes: page, pageSize, sort, search and the filters set. */
  query: { page: number; pageSize: number; sort: string; search?: string } & Partial<
    Record<Filter, string>
  >;
  setPage: (page: number, pageSize?: number) => void;
  setSort: (sort: string | undefined) => void;
  setSearch: (search: string) => void;
  setFilter: (filter: Filter, value: string | undefined) => void;
}

function wholeNumber(text: string | null, min: number, max: number): number | undefined {
  if (!text || !/^\d{1,6}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

/**
 * A server-paginated list's page, sort, search and filters, kept in the
 * address (`?page=2&search=ada`), so a reload, a shared link or the back
 * button shows the same list. Values the API would refuse are ignored.
 */
export function useListParams<Filter extends string = never>({
  sortFields,
  defaultSort,
  defaultPageSize = 25,
  filters: filterNames = [],
}: ListParamsOptions<Filter>): ListParams<Filter> {
  const [params, setParams] = useSearchParams();

  const rawSort = params.get('sort');
  const sort = rawSort && sortFields.includes(rawSort.replace(/^-/, '')) ? rawSort : defaultSort;
  const page = wholeNumber(params.get('page'), 1, 100_000) ?? 1;
  const pageSize = wholeNumber(params.get('pageSize'), 1, PAGE_SIZE_MAX) ?? defaultPageSize;
  const search = params.get('search')?.trim() ?? '';
  const filterKey = filterNames.map((name) => `${name}=${params.get(name) ?? ''}`).join('&');

  const filters = useMemo(() => {
    const values: Partial<Record<Filter, string>> = {};
    for (const entry of filterKey.split('&')) {
      const [name, value] = entry.split('=') as [Filter, string];
      if (value) values[name] = value;
    }
    return values;
  }, [filterKey]);

  const update = useCallback(
    (changes: Record<string, string | undefined>, keepPage = false) => {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [name, value] of Object.entries(changes)) {
            if (value === undefined || value === '') next.delete(name);
            else next.set(name, value);
          }
          // A new search, sort or filter starts again from the first page.
          if (!keepPage) next.delete('page');
          return next;
        },
        // Typing a search is not a place to come back to: the history keeps the section.
        { replace: true },
      );
    },
    [setParams],
  );

  const query = useMemo(
    () => ({ page, pageSize, sort, ...(search ? { search } : {}), ...filters }),
    [page, pageSize, sort, search, filters],
  );

  return {
    page,
    pageSize,
    sort,
    search,
    filters,
    query,
    setPage: useCallback(
      (nextPage: number, nextPageSize?: number) =>
        update(
          {
            page: nextPage > 1 ? String(nextPage) : undefined,
            ...(nextPageSize !== undefined ? { pageSize: String(nextPageSize) } : {}),
          },
          true,
        ),
      [update],
    ),
    setSort: useCallback((next: string | undefined) => update({ sort: next }), [update]),
    setSearch: useCallback((next: string) => update({ search: next.trim() }), [update]),
    setFilter: useCallback(
      (name: Filter, value: string | undefined) => update({ [name]: value }),
      [update],
    ),
  };
}
