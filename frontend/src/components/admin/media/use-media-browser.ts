import { MEDIA_SORT_FIELDS } from '@agency/contracts';
import { useState } from 'react';
import { useMediaListQuery, type MediaListArgs } from '../../../lib/media-api';
import type { ListParams } from '../../../lib/use-list-params';

/**
 * Where the library is being read: its search and the position of the page
 * shown. The media screen keeps it in the address (`useListParams`), so
 * reloads and Back work; the picker, a dialog, keeps it to itself.
 */
export type MediaPlace = Pick<ListParams<never>, 'query' | 'search' | 'setSearch' | 'goTo'>;

/** How the media screen reads its place from the address. */
export const MEDIA_LIST_OPTIONS = {
  sortFields: MEDIA_SORT_FIELDS,
  defaultSort: '-createdAt',
  defaultPageSize: 25,
  keyset: true,
} as const;

/** A place kept in the component's state: a dialog's browsing leaves the address alone. */
export function useMediaPlaceInState(pageSize: number): MediaPlace {
  const [search, setSearch] = useState('');
  const [position, setPosition] = useState<{ after?: string; before?: string }>({});
  return {
    search,
    query: {
      pageSize,
      sort: MEDIA_LIST_OPTIONS.defaultSort,
      ...(search ? { search } : {}),
      ...position,
    },
    setSearch: (next) => {
      setSearch(next.trim());
      setPosition({});
    },
    goTo: (direction, at) => setPosition(direction === 'next' ? { after: at } : { before: at }),
  };
}

/**
 * One page of the library at a time, searched by name, with the positions
 * of the pages before and after it (keyset pages: a page costs the same
 * however deep it lies). A new search starts again at the first page.
 */
export function useMediaBrowser(place: MediaPlace) {
  // The sort is one of MEDIA_SORT_FIELDS: the address is read against them.
  const query = useMediaListQuery(place.query as MediaListArgs);
  const page = query.data;
  const { next, previous } = page ?? {};
  return {
    search: place.search,
    onSearch: place.setSearch,
    items: page?.items ?? [],
    total: page?.total,
    loading: query.isLoading || (query.isFetching && !page),
    failed: query.isError,
    retry: () => void query.refetch(),
    next: next ? () => place.goTo('next', next) : undefined,
    previous: previous ? () => place.goTo('previous', previous) : undefined,
  };
}

export type MediaBrowser = ReturnType<typeof useMediaBrowser>;
