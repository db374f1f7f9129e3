import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

export interface PageHeadingProps {
  title: string;
  subtitle?: string;
  /** Buttons on the heading's line (they wrap below it on a phone). */
  actions?: ReactNode;
}

/** The one h1 of an admin section, with its actions. */
export function PageHeading({ title, subtitle, actions }: PageHeadingProps) {
  return (
    <Stack
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ mb: 3, alignItems: { xs: 'stretch', sm: 'center' }, justifyContent: 'space-between' }}
    >
      <div>
        <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.6rem', sm: '2rem' } }}>
          {title}
        </Typography>
        {subtitle ? <Typography sx={{ color: 'text.secondary' }}>{subtitle}</Typography> : null}
      </div>
      {actions ? (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
          {actions}
        </Stack>
      ) : null}
    </Stack>
  );
}
