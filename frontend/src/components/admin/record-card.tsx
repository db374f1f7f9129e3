import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';

export interface RecordCardProps {
  /** The record's name, in bold. */
  title: ReactNode;
  /** Beside the title: the record's status chip. */
  badge?: ReactNode;
  /** The record's own page: the card's content becomes a link to it. */
  to?: string;
  /** The record's buttons, under its content. */
  actions?: ReactNode;
  /** The lines under the title. */
  children?: ReactNode;
}

/** One record of an admin list as a phone shows it, in place of a table row. */
export function RecordCard({ title, badge, to, actions, children }: RecordCardProps) {
  const content = (
    <CardContent sx={actions ? { pb: 1 } : undefined}>
      <Stack
        direction="row"
        spacing={1}
        sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}
      >
        <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>{title}</Typography>
        {badge}
      </Stack>
      {children}
    </CardContent>
  );
  return (
    <Card variant="outlined">
      {to ? (
        <CardActionArea component={RouterLink} to={to}>
          {content}
        </CardActionArea>
      ) : (
        content
      )}
      {/* Beside a linked card's content, not inside it: a button may not sit in a link. */}
      {actions ? <CardActions>{actions}</CardActions> : null}
    </Card>
  );
}
