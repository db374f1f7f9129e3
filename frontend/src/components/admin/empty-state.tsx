import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface EmptyStateProps {
  icon?: ReactNode;
  title: string;
  description?: string;
  /** What to do next, e.g. an Add button (shown only to those who may). */
  action?: ReactNode;
  /** 'h1' when the state is the whole page (a section the role may not open). */
  titleComponent?: 'p' | 'h1' | 'h2';
}

/** What a list shows when it has nothing yet: why, and what to do about it. */
export function EmptyState({
  icon,
  title,
  description,
  action,
  titleComponent = 'p',
}: EmptyStateProps) {
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 }, textAlign: 'center' }}>
      <Stack spacing={1.5} sx={{ alignItems: 'center' }}>
        {icon ? (
          <Stack sx={{ color: 'text.secondary', '& svg': { fontSize: 48 } }}>{icon}</Stack>
        ) : null}
        <Typography variant="h6" component={titleComponent}>
          {title}
        </Typography>
        {description ? (
          <Typography sx={{ color: 'text.secondary', maxWidth: 480 }}>{description}</Typography>
        ) : null}
        {action}
      </Stack>
    </Paper>
  );
}
