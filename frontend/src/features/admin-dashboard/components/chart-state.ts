/** The drawing's height, the same for every chart of the analytics page. */
export const CHART_HEIGHT = 280;

type QueryState = { isLoading: boolean; isError: boolean; data?: unknown };

/** What a chart card shows for its query: an error only while there is nothing to show. */
export function stateOf(
  query: QueryState,
  empty: boolean,
): 'loading' | 'error' | 'empty' | 'ready' {
  if (query.isError && !query.data) return 'error';
  if (query.isLoading || !query.data) return 'loading';
  return empty ? 'empty' : 'ready';
}
