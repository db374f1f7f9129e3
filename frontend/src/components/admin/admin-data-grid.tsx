import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import {
  DataGrid,
  type GridColDef,
  type GridPaginationModel,
  type GridRowSelectionModel,
  type GridSortModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { arSD, frFR } from '@mui/x-data-grid/locales';
import { useMemo } from 'react';
import { useLocale } from '../../lib/locale';
import { useFormatters } from '../../lib/use-formatters';
import { useNamespace } from '../../lib/translations';
import { PAGE_SIZES } from '../../lib/use-list-params';
import { ADMIN_COMMON_NAMESPACE } from './admin-common-namespace';

const LOCALE_TEXT = {
  en: undefined,
  fr: frFR.components.MuiDataGrid.defaultProps.localeText,
  ar: arSD.components.MuiDataGrid.defaultProps.localeText,
};

export interface AdminDataGridProps<Row extends GridValidRowModel> {
  /** The table's accessible name. */
  label: string;
  rows: readonly Row[];
  columns: GridColDef<Row>[];
  total: number;
  /** The API stopped counting at `total`: "more than total". */
  atLeast?: boolean;
  /** For a list paged by position: whether the API has a next page. */
  hasNext?: boolean;
  loading: boolean;
  page: number;
  pageSize: number;
  /** `field` or `-field`, as the API takes it. */
  sort: string;
  onPageChange: (page: number, pageSize: number) => void;
  onSortChange: (sort: string | undefined) => void;
  /** Shown in the table when this page of the list is empty. */
  noRowsLabel: string;
  /** Rows as tall as their content, for cells that open (a disclosure); one line otherwise. */
  autoRowHeight?: boolean;
  /** Rows chosen with checkboxes for an action on them all; none: no checkboxes. */
  selection?: RowSelection;
}

/** The rows chosen (by id), kept across pages, at most `max` of them. */
export interface RowSelection {
  ids: readonly string[];
  onChange: (ids: string[]) => void;
  max: number;
}

/** The DataGrid props of a selection by checkbox: kept across the server's pages, capped at `max`. */
function useSelectionProps(selection: RowSelection | undefined) {
  return useMemo(() => {
    if (!selection) return {};
    const chosen = new Set(selection.ids);
    return {
      checkboxSelection: true,
      keepNonExistentRowsSelected: true,
      rowSelectionModel: { type: 'include' as const, ids: new Set<string>(selection.ids) },
      onRowSelectionModelChange: (model: GridRowSelectionModel) =>
        selection.onChange([...model.ids].map(String).slice(0, selection.max)),
      // With a cap the grid reports every choice as the ids it names ("select
      // all" is this page's rows), never as "every row but these" on the server.
      isRowSelectable: ({ id }: { id: string | number }) =>
        chosen.has(String(id)) || chosen.size < selection.max,
    };
  }, [selection]);
}

function toSortModel(sort: string): GridSortModel {
  const descending = sort.startsWith('-');
  return [{ field: descending ? sort.slice(1) : sort, sort: descending ? 'desc' : 'asc' }];
}

/** The API's order (`field` or `-field`) from the grid's sort model; none when unsorted. */
function fromSortModel(model: GridSortModel): string | undefined {
  const [first] = model;
  return first?.sort ? `${first.sort === 'desc' ? '-' : ''}${first.field}` : undefined;
}

interface GridTextOptions {
  loading: boolean;
  rowCount: number;
  noRowsLabel: string;
  atLeast: boolean;
  total: number;
}

/** The grid's texts in the page's language, with the admin's own figures. */
function useGridLocaleText({ loading, rowCount, noRowsLabel, atLeast, total }: GridTextOptions) {
  const locale = useLocale();
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const format = useFormatters();
  return useMemo(
    () => ({
      ...LOCALE_TEXT[locale],
      // A first page still on its way is not an empty list.
      noRowsLabel: loading && rowCount === 0 ? t('list.loading') : noRowsLabel,
      // Our own numbers, not the grid's locale's: its Arabic writes Arabic-Indic
      // digits where every other figure of the admin has Western ones.
      // The count the API gave up on is still a floor: "1–25 of more than 1,000".
      // Without a count the grid takes a page as full: the last row is the page's own.
      paginationDisplayedRows: ({ from, to }: { from: number; to: number }) =>
        atLeast
          ? t('list.rowsOfMoreThan', {
              from: format.number(from),
              to: format.number(rowCount > 0 ? Math.min(to, from + rowCount - 1) : to),
              total: format.number(total),
            })
          : t('list.rowsOf', {
              from: format.number(from),
              to: format.number(to),
              total: format.number(total),
            }),
    }),
    [locale, noRowsLabel, loading, atLeast, total, t, format, rowCount],
  );
}

/** Cells that render components (chips, buttons, progress) are centred like text cells. */
function useCentredColumns<Row extends GridValidRowModel>(columns: GridColDef<Row>[]) {
  return useMemo(
    () =>
      columns.map((column) =>
        column.renderCell ? { display: 'flex' as const, ...column } : column,
      ),
    [columns],
  );
}

/**
 * The admin lists' table: MUI X DataGrid with the page, the order and the
 * search done by the API (`{ items, total }`), in the page's language.
 */
export function AdminDataGrid<Row extends GridValidRowModel>({
  label,
  rows,
  columns,
  total,
  atLeast = false,
  hasNext,
  loading,
  page,
  pageSize,
  sort,
  onPageChange,
  onSortChange,
  noRowsLabel,
  autoRowHeight = false,
  selection,
}: AdminDataGridProps<Row>) {
  const { t } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const localeText = useGridLocaleText({
    loading,
    rowCount: rows.length,
    noRowsLabel,
    atLeast,
    total,
  });
  const paginationModel = useMemo(() => ({ page: page - 1, pageSize }), [page, pageSize]);
  const centredColumns = useCentredColumns(columns);
  const sortModel = useMemo(() => toSortModel(sort), [sort]);
  const selectionProps = useSelectionProps(selection);

  return (
    // A column flex parent without a height: the grid is as tall as its page of rows.
    <Box sx={{ display: 'flex', flexDirection: 'column', width: '100%' }} aria-busy={loading}>
      {/* The loading bar sits above the table, not in it: the grid's own overlay
          puts an unnamed progress bar among its rows, where assistive technology
          expects only rows (axe: aria-required-children, aria-progressbar-name).
          The fixed height keeps the table still as the bar comes and goes. */}
      <Box sx={{ height: 4 }}>{loading && <LinearProgress aria-label={t('list.loading')} />}</Box>
      <DataGrid
        aria-label={label}
        rows={rows}
        columns={centredColumns}
        rowCount={atLeast ? -1 : total}
        {...(hasNext !== undefined && { paginationMeta: { hasNextPage: hasNext } })}
        paginationMode="server"
        sortingMode="server"
        filterMode="server"
        paginationModel={paginationModel}
        onPaginationModelChange={({ page: index, pageSize: size }: GridPaginationModel) =>
          onPageChange(index + 1, size)
        }
        pageSizeOptions={[...PAGE_SIZES]}
        sortModel={sortModel}
        sortingOrder={['desc', 'asc']}
        onSortModelChange={(model: GridSortModel) => onSortChange(fromSortModel(model))}
        disableColumnFilter
        disableRowSelectionOnClick
        {...selectionProps}
        // A page holds at most 100 rows: rendering them all keeps the table simple
        // for screen readers and lets it size itself to its rows.
        disableVirtualization
        {...(autoRowHeight && { getRowHeight: () => 'auto' as const })}
        localeText={localeText}
        sx={{ bgcolor: 'background.paper' }}
      />
    </Box>
  );
}
