import type { KeysetPage, Page } from '@agency/contracts';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import type { ReactNode } from 'react';
import type { ListParams } from '../../lib/use-list-params';
import { useNamespace } from '../../lib/translations';
import { ADMIN_COMMON_NAMESPACE } from './admin-common-namespace';
import { AdminDataGrid, type RowSelection } from './admin-data-grid';
import { CardList } from './card-list';
import { LoadError } from './load-error';
import { useIsMobile } from './use-is-mobile';

/** What AdminList reads of an RTK Query list query's result. */
export interface ListQueryState<Row> {
  data?: Page<Row> | KeysetPage<Row>;
  isLoading: boolean;
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
}

export interface AdminListProps<Row extends GridValidRowModel & { id: string }> {
  /** The table's (or the card list's) accessible name. */
  label: string;
  /** The list's RTK Query result: the page the API answered, and the state of that query. */
  query: ListQueryState<Row>;
  /** The page, order, search and filters kept in the address. */
  list: Pick<ListParams<string>, 'page' | 'pageSize' | 'sort' | 'search' | 'filters'> &
    Pick<ListParams<string>, 'setPage' | 'setSort'> &
    Partial<Pick<ListParams<string>, 'goTo'>>;
  /** The empty state shown when nothing exists yet (not when a search finds nothing). */
  empty: ReactNode;
  columns: GridColDef<Row>[];
  /** One record on a phone. */
  renderCard: (row: Row) => ReactNode;
  /** Table rows as tall as their content (cells with a disclosure). */
  autoRowHeight?: boolean;
  /** Rows chosen by checkbox in the table (a card chooses its own, in `renderCard`). */
  selection?: RowSelection;
}

function isKeyset<Row>(page: Page<Row> | KeysetPage<Row> | undefined): page is KeysetPage<Row> {
  return page !== undefined && 'next' in page;
}

/**
 * The body of every admin list: the error state with a retry, the empty
 * state while nothing exists, then the DataGrid on a desktop or cards under
 * 768 px, paged, sorted and searched by the API. A list paged by position
 * moves to the next or previous page only, and says "more than N" when the
 * API could not count every match.
 */
export function AdminList<Row extends GridValidRowModel & { id: string }>({
  label,
  query,
  list,
  empty,
  columns,
  renderCard,
  autoRowHeight = false,
  selection,
}: AdminListProps<Row>) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const mobile = useIsMobile();
  const filtered = Boolean(list.search || Object.values(list.filters).some(Boolean));
  const { data, isError } = query;
  const loading = query.isLoading || query.isFetching;

  if (isError && !data) return <LoadError onRetry={() => void query.refetch()} />;
  if (data && data.total === 0 && !filtered) return <>{empty}</>;
  const keyset = isKeyset(data) ? data : undefined;
  const moves = {
    hasNext: keyset ? keyset.next !== null : undefined,
    hasPrevious: keyset ? keyset.previous !== null || list.page > 1 : undefined,
    next: () => {
      if (keyset?.next) list.goTo?.('next', keyset.next);
      else list.setPage(list.page + 1);
    },
    previous: () => {
      if (keyset) list.goTo?.('previous', keyset.previous ?? '');
      else list.setPage(list.page - 1);
    },
  };
  // A page reached by position holds its rows whatever the total said: a kept
  // count that lags (rows came in meanwhile) is only a floor then, so the
  // table says "more than" and never thinks this page lies past the end.
  const reached = keyset ? (list.page - 1) * list.pageSize + keyset.items.length : 0;
  const lagging = keyset !== undefined && keyset.next !== null && keyset.total <= reached;
  const atLeast = keyset?.totalKind === 'atLeast' || lagging;
  const total = keyset ? Math.max(keyset.total, reached) : (data?.total ?? 0);
  if (mobile) {
    return (
      <CardList
        label={label}
        items={data?.items ?? []}
        total={total}
        atLeast={atLeast}
        page={list.page}
        pageSize={list.pageSize}
        loading={loading}
        hasNext={moves.hasNext}
        hasPrevious={moves.hasPrevious}
        onNext={moves.next}
        onPrevious={moves.previous}
        itemKey={(row) => row.id}
        renderItem={renderCard}
        noItemsLabel={t('list.noResults')}
      />
    );
  }
  return (
    <AdminDataGrid
      label={label}
      rows={data?.items ?? []}
      columns={columns}
      total={total}
      atLeast={atLeast}
      hasNext={moves.hasNext}
      loading={loading}
      page={list.page}
      pageSize={list.pageSize}
      sort={list.sort}
      onPageChange={(page, pageSize) => {
        if (!keyset || pageSize !== list.pageSize) list.setPage(page, pageSize);
        else if (page > list.page) moves.next();
        else if (page < list.page) moves.previous();
      }}
      onSortChange={list.setSort}
      noRowsLabel={t('list.noResults')}
      autoRowHeight={autoRowHeight}
      selection={selection}
    />
  );
}
