import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';

export interface FigureTableProps {
  /** The table's accessible name. */
  label: string;
  headers: readonly string[];
  /** Each row's first cell names it (a row header); the others are figures. */
  rows: readonly { key: string; cells: readonly ReactNode[] }[];
}

/**
 * A small table of figures. On a phone it scrolls sideways inside its own
 * box (focusable, so a keyboard can scroll it) rather than widening the page.
 */
export function FigureTable({ label, headers, rows }: FigureTableProps) {
  return (
    <TableContainer tabIndex={0} role="region" aria-label={label} sx={{ mt: 1, overflowX: 'auto' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {headers.map((header, index) => (
              <TableCell key={header} align={index === 0 ? 'left' : 'right'}>
                {header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map(({ key, cells }) => (
            <TableRow key={key}>
              {cells.map((cell, index) =>
                index === 0 ? (
                  <TableCell key={index} component="th" scope="row">
                    {cell}
                  </TableCell>
                ) : (
                  <TableCell key={index} align="right">
                    {cell}
                  </TableCell>
                ),
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
