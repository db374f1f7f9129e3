import { CURSOR_MAX_LENGTH, PAGE_SIZE_MAX } from '@agency/contracts';
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
  /**
   * The API pages by position (`after`/`before`) rather than by number: the
   * address keeps the position, and the page number only for display.
   */
  keyset?: boolean;
}

export interface ListParams<Filter extends string> {
  keyset: boolean;
  /** From 1; for a keyset list, counted as the user pages (for display only). */
  page: number;
  pageSize: number;
  sort: string;
  search: string;
  filters: Partial<Record<Filter, string>>;
  /** What the list endpoint takes: the page (or position), pageSize, sort, search and filters. */
  query: {
    pageSize: number;
    sort: string;
    search?: string;
    page?: number;
    /** Where a keyset page starts: after or before a position the API gave. */
    after?: string;
    before?: string;
  } & Partial<Record<Filter, string>>;
  setPage: (page: number, pageSize?: number) => void;
  /** A keyset list's next or previous page, from the position the API gave (none: the top). */
  goTo: (direction: 'next' | 'previous', position: string) => void;
  setSort: (sort: string | undefined) => void;
  setSearch: (search: string) => void;
  setFilter: (filter: Filter, value: string | undefined) => void;
}

function wholeNumber(text: string | null, min: number, max: number): number | undefined {
  if (!text || !/^\d{1,6}$/.test(text)) return undefined;
  const value = Number(text);
  return value >= min && value <= max ? value : undefined;
}

function position(text: string | null): string | undefined {
  return text && text.length <= CURSOR_MAX_LENGTH && /^[\w-]+$/.test(text) ? text : undefined;
}

interface AddressRules<Filter extends string> {
  sortFields: readonly string[];
  defaultSort: string;
  defaultPageSize: number;
  filterNames: readonly Filter[];
  keyset: boolean;
}

interface ListAddress {
  sort: string;
  page: number;
  pageSize: number;
  search: string;
  after?: string;
  before?: string;
  /** The filters' values as one string, so that their object changes only when they do. */
  filterKey: string;
}

/** What the address asks for, with the values the API would refuse left out. */
function readListAddress<Filter extends string>(
  params: URLSearchParams,
  { sortFields, defaultSort, defaultPageSize, filterNames, keyset }: AddressRules<Filter>,
): ListAddress {
  const rawSort = params.get('sort');
  const after = keyset ? position(params.get('after')) : undefined;
  return {
    sort: rawSort && sortFields.includes(rawSort.replace(/^-/, '')) ? rawSort : defaultSort,
    page: wholeNumber(params.get('page'), 1, 100_000) ?? 1,
    pageSize: wholeNumber(params.get('pageSize'), 1, PAGE_SIZE_MAX) ?? defaultPageSize,
    search: params.get('search')?.trim() ?? '',
    after,
    before: keyset && !after ? position(params.get('before')) : undefined,
    filterKey: filterNames.map((name) => `${name}=${params.get(name) ?? ''}`).join('&'),
  };
}

function useFilterValues<Filter extends string>(filterKey: string) {
  return useMemo(() => {
    const values: Partial<Record<Filter, string>> = {};
    for (const entry of filterKey.split('&')) {
      const [name, value] = entry.split('=') as [Filter, string];
      if (value) values[name] = value;
    }
    return values;
  }, [filterKey]);
}

type AddressUpdate = (changes: Record<string, string | undefined>, keepPage?: boolean) => void;

/** Writes changes into the address, in place of the current entry. */
function useAddressUpdate(setParams: ReturnType<typeof useSearchParams>[1]): AddressUpdate {
  return useCallback(
    (changes: Record<string, string | undefined>, keepPage = false) => {
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          // A new search, sort or filter starts again from the first page.
          if (!keepPage) {
            for (const name of ['page', 'after', 'before']) next.delete(name);
          }
          for (const [name, value] of Object.entries(changes)) {
            if (value === undefined || value === '') next.delete(name);
            else next.set(name, value);
          }
          return next;
        },
        // Typing a search is not a place to come back to: the history keeps the section.
        { replace: true },
      );
    },
    [setParams],
  );
}

function useListQuery<Filter extends string>(
  { page, pageSize, sort, search, after, before }: ListAddress,
  filters: Partial<Record<Filter, string>>,
  keyset: boolean,
): ListParams<Filter>['query'] {
  return useMemo(() => {
    const start = after ? { after } : before ? { before } : {};
    return {
      pageSize,
      sort,
      ...(keyset ? start : { page }),
      ...(search ? { search } : {}),
      ...filters,
    };
  }, [keyset, page, pageSize, sort, search, filters, after, before]);
}

type ListSetters<Filter extends string> = Pick<
  ListParams<Filter>,
  'setPage' | 'goTo' | 'setSort' | 'setSearch' | 'setFilter'
>;

function useListSetters<Filter extends string>(
  update: AddressUpdate,
  { keyset, page, pageSize }: { keyset: boolean; page: number; pageSize: number },
): ListSetters<Filter> {
  return {
    setPage: useCallback(
      (nextPage: number, nextPageSize?: number) =>
        update(
          {
            page: nextPage > 1 ? String(nextPage) : undefined,
            ...(nextPageSize !== undefined ? { pageSize: String(nextPageSize) } : {}),
          },
          // A keyset list cannot jump: a new page size starts again from the top.
          !(keyset && nextPageSize !== undefined && nextPageSize !== pageSize),
        ),
      [update, keyset, pageSize],
    ),
    goTo: useCallback(
      (direction: 'next' | 'previous', at: string) => {
        const nextPage = direction === 'next' ? page + 1 : page - 1;
        // Back on page 1 (or with no position to go to), the list starts at its
        // top again, with what arrived meanwhile.
        if (nextPage <= 1 || !at) update({});
        else update({ page: String(nextPage), [direction === 'next' ? 'after' : 'before']: at });
      },
      [update, page],
    ),
    setSort: useCallback((next: string | undefined) => update({ sort: next }), [update]),
    setSearch: useCallback((next: string) => update({ search: next.trim() }), [update]),
    setFilter: useCallback(
      (name: Filter, value: string | undefined) => update({ [name]: value }),
      [update],
    ),
  };
}

/**
 * A server-paginated list's page, sort, search and filters, kept in the
 * address (`?page=2&search=ada`, or `?after=...&page=2` for a keyset list),
 * so a reload, a shared link or the back button shows the same list. Values
 * the API would refuse are ignored.
 */
export function useListParams<Filter extends string = never>({
  sortFields,
  defaultSort,
  defaultPageSize = 25,
  filters: filterNames = [],
  keyset = false,
}: ListParamsOptions<Filter>): ListParams<Filter> {
  const [params, setParams] = useSearchParams();
  const address = readListAddress(params, {
    sortFields,
    defaultSort,
    defaultPageSize,
    filterNames,
    keyset,
  });
  const { page, pageSize, sort, search } = address;
  const filters = useFilterValues<Filter>(address.filterKey);
  const update = useAddressUpdate(setParams);
  const query = useListQuery(address, filters, keyset);
  const setters = useListSetters<Filter>(update, { keyset, page, pageSize });
  return { keyset, page, pageSize, sort, search, filters, query, ...setters };
}
