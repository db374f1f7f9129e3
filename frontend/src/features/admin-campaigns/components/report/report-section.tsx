import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useId, type ReactNode } from 'react';

// The figure table is shared with the dashboard's charts; the report's parts import it from here.
export { FigureTable, type FigureTableProps } from '../../../../components/admin/figure-table';

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
