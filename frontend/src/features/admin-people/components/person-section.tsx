import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

/**
 * One part of a person's page: an h2 and its records, or a sentence saying
 * there are none. The section is named by its heading.
 */
export function PersonSection({
  title,
  empty,
  isEmpty,
  children,
}: {
  title: string;
  /** What stands in for the records when there are none. */
  empty: string;
  isEmpty: boolean;
  children?: ReactNode;
}) {
  const headingId = useId();
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {isEmpty ? <Typography sx={{ color: 'text.secondary' }}>{empty}</Typography> : children}
    </Paper>
  );
}

/**
 * A few records as a table whose first cell names each row. On a phone it
 * scrolls sideways in its own box (focusable, so a keyboard can scroll it).
 */
export function RecordTable({
  label,
  headers,
  rows,
}: {
  label: string;
  headers: readonly string[];
  rows: readonly { key: string; cells: readonly ReactNode[] }[];
}) {
  return (
    <TableContainer tabIndex={0} role="region" aria-label={label} sx={{ overflowX: 'auto' }}>
      <Table size="small" aria-label={label}>
        <TableHead>
          <TableRow>
            {headers.map((header) => (
              <TableCell key={header}>{header}</TableCell>
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
                  <TableCell key={index}>{cell}</TableCell>
                ),
              )}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Label and value pairs (a description list), as a record's details read. */
export function Details({ items }: { items: readonly { label: string; value: ReactNode }[] }) {
  return (
    <Typography
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'minmax(8rem, max-content) 1fr' },
        columnGap: 2,
        rowGap: 0.5,
        m: 0,
        '& dt': { color: 'text.secondary' },
        '& dd': { m: 0, mb: { xs: 1, sm: 0 }, overflowWrap: 'anywhere' },
      }}
    >
      {items.map(({ label, value }) => (
        <div key={label} style={{ display: 'contents' }}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </Typography>
  );
}
