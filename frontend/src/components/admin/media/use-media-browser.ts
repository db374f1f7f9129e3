import { useState } from 'react';
import { useMediaListQuery } from '../../../lib/media-api';

/** Where the library is being read: a search and the position of the page shown. */
type Position = { after: string } | { before: string } | Record<string, never>;

/**
 * One page of the library at a time, searched by name, with the positions
 * of the pages before and after it (keyset pages: a page costs the same
 * however deep it lies). A new search starts again at the first page.
 */
export function useMediaBrowser(pageSize: number) {
  const [search, setSearch] = useState('');
  const [position, setPosition] = useState<Position>({});
  const query = useMediaListQuery({ pageSize, ...(search ? { search } : {}), ...position });
  const page = query.data;
  return {
    search,
    onSearch: (next: string) => {
      setSearch(next.trim());
      setPosition({});
    },
    items: page?.items ?? [],
    total: page?.total,
    loading: query.isLoading || (query.isFetching && !page),
    failed: query.isError,
    retry: () => void query.refetch(),
    next: page?.next ? () => setPosition({ after: page.next ?? '' }) : undefined,
    previous: page?.previous ? () => setPosition({ before: page.previous ?? '' }) : undefined,
  };
}

export type MediaBrowser = ReturnType<typeof useMediaBrowser>;
