import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';
import { LoadError } from '../../../components/admin/load-error';
import { visuallyHidden } from '../../../lib/visually-hidden';

interface ChartCardBaseProps {
  title: string;
  state: 'loading' | 'error' | 'empty' | 'ready';
  emptyText: string;
  errorText: string;
  onRetry: () => void;
  children: ReactNode;
}

export type ChartCardProps = ChartCardBaseProps &
  (
    | {
        /** The figures as a hidden table: what a screen reader reads instead of the drawing. */
        table: { headers: [string, ...string[]]; rows: (string | number)[][] };
        details?: never;
      }
    | {
        /**
         * The figures shown under the drawing (a table with links, say): everyone
         * reads them, so there is no hidden table to read them twice.
         */
        details: ReactNode;
        table?: never;
      }
  );

/** The figures for screen readers only, as a table captioned with the chart's title. */
function HiddenTable({
  title,
  table,
}: {
  title: string;
  table: { headers: string[]; rows: (string | number)[][] };
}) {
  return (
    // Hidden on a block: a table is never narrower than its content, so hiding the
    // table itself can leave it sticking out of a phone's page.
    <Box sx={visuallyHidden}>
      <table>
        <caption>{title}</caption>
        <thead>
          <tr>
            {table.headers.map((header) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr key={String(row[0])}>
              {row.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row">
                    {cell}
                  </th>
                ) : (
                  <td key={index}>{cell}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </Box>
  );
}

/** One chart with its title, its states, and its data as an accessible table. */
export function ChartCard({
  title,
  state,
  emptyText,
  errorText,
  onRetry,
  table,
  details,
  children,
}: ChartCardProps) {
  const titleId = useId();
  return (
    <Paper
      variant="outlined"
      sx={{ p: 2.5, height: '100%' }}
      component="section"
      aria-labelledby={titleId}
    >
      <Typography id={titleId} variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {state === 'error' ? <LoadError title={errorText} onRetry={onRetry} /> : null}
      {state === 'loading' ? <Skeleton variant="rounded" height={260} aria-busy /> : null}
      {state === 'empty' ? (
        <Typography sx={{ color: 'text.secondary', py: 6, textAlign: 'center' }}>
          {emptyText}
        </Typography>
      ) : null}
      {state === 'ready' ? (
        <>
          {/* A long axis label is cut at the card's edge rather than widening a phone's page.
              The drawing is hidden from screen readers, which read the table below, so a
              chart inside must not take the keyboard focus (`disableKeyboardNavigation`). */}
          <Box aria-hidden sx={{ overflow: 'hidden' }}>
            {children}
          </Box>
          {table ? <HiddenTable title={title} table={table} /> : details}
        </>
      ) : null}
    </Paper>
  );
}
