import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import type { ReactElement, ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';

export interface RowAction {
  /** The button's accessible name, naming the record ("Delete Acme"); also its tooltip. */
  label: string;
  icon: ReactElement;
  /** Either an action or an address inside the app. */
  onClick?: () => void;
  to?: string;
  disabled?: boolean;
  /** Why it is disabled, shown instead of the label. */
  disabledReason?: string;
}

/**
 * A record's icon buttons, the same in a table row and on a phone's card:
 * each a real button (or link) with a name, reachable by keyboard, and a
 * tooltip saying what the icon does. `false`/`null` entries are actions the
 * role or the record's state does not offer.
 */
export function RowActions({
  actions,
  children,
}: {
  actions: readonly (RowAction | false | null | undefined)[];
  /** Text buttons shown before the icons (a record's main action). */
  children?: ReactNode;
}) {
  return (
    <Stack direction="row" spacing={0.5} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
      {children}
      {actions.filter(Boolean).map((action) => {
        const { label, icon, onClick, to, disabled, disabledReason } = action as RowAction;
        const button = to ? (
          <IconButton size="small" component={RouterLink} to={to} aria-label={label}>
            {icon}
          </IconButton>
        ) : (
          <IconButton size="small" aria-label={label} onClick={onClick} disabled={disabled}>
            {icon}
          </IconButton>
        );
        return (
          <Tooltip key={label} title={disabled ? (disabledReason ?? label) : label} describeChild>
            {/* A disabled button fires no events: the span lets its tooltip show. */}
            <span>{button}</span>
          </Tooltip>
        );
      })}
    </Stack>
  );
}

/** The pencil that opens a record's edit modal. */
export function editAction(label: string, onClick: () => void): RowAction {
  return { label, icon: <EditIcon fontSize="small" />, onClick };
}

/** The bin that asks to delete a record (the caller confirms first). */
export function deleteAction(
  label: string,
  onClick: () => void,
  unavailable?: Pick<RowAction, 'disabled' | 'disabledReason'>,
): RowAction {
  return { label, icon: <DeleteIcon fontSize="small" />, onClick, ...unavailable };
}

/**
 * A small icon button and the gap after it, as the browser lays them out
 * (36 px measured in Chromium), with 2 px to spare for a browser that rounds up.
 */
const ACTION_BUTTON_WIDTH = 38;
/** The cell's own padding, both sides. */
const ACTIONS_CELL_PADDING = 22;

/**
 * How wide the actions column must be for `count` buttons on one line: a
 * narrower cell wraps its last buttons onto a second line the row's height
 * hides.
 */
export function actionsColumnWidth(count: number): number {
  return count * ACTION_BUTTON_WIDTH + ACTIONS_CELL_PADDING;
}

/** The tables' last column: the row's actions, not sortable. */
export function actionsColumn<Row extends GridValidRowModel>(
  headerName: string,
  render: (row: Row) => ReactNode,
  width = 110,
): GridColDef<Row> {
  return {
    field: 'actions',
    headerName,
    width,
    sortable: false,
    renderCell: ({ row }) => render(row),
  };
}
