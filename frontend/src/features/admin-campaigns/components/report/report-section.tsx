import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

/** One part of the report: a card named by its h2, with an optional line under the title. */
export function ReportSection({
  title,
  hint,
  actions,
  children,
}: {
  title: string;
  hint?: string;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={titleId}
      sx={{ p: { xs: 2, sm: 3 }, minWidth: 0 }}
    >
      <Typography id={titleId} variant="h6" component="h2">
        {title}
      </Typography>
      {hint ? (
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
          {hint}
        </Typography>
      ) : null}
      {actions}
      {children}
    </Paper>
  );
}

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
