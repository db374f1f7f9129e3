import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import type { LinkOutcome } from '../newsletter-link';
import { useNamespace } from '../../../lib/translations';
import { NEWSLETTER_NAMESPACE } from '../newsletter-namespace';

export interface LinkOutcomePanelProps {
  outcome: LinkOutcome;
  title: string;
  description: string;
  /** The page's own action (a button), shown under the text. */
  children?: ReactNode;
}

const ICONS: Partial<Record<LinkOutcome, ReactNode>> = {
  done: <CheckCircleIcon color="success" sx={{ fontSize: 72 }} aria-hidden />,
  expired: <LinkOffIcon color="warning" sx={{ fontSize: 72 }} aria-hidden />,
  invalid: <LinkOffIcon color="error" sx={{ fontSize: 72 }} aria-hidden />,
  failed: <ErrorOutlineIcon color="error" sx={{ fontSize: 72 }} aria-hidden />,
  test: <InfoOutlinedIcon color="info" sx={{ fontSize: 72 }} aria-hidden />,
};

/** The frame of the pages a newsletter mail links to: where things stand, and a way home. */
export function LinkOutcomePanel({ outcome, title, description, children }: LinkOutcomePanelProps) {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  return (
    // The texts name the person's address, one long word: it wraps rather than widen a phone's page.
    <Container
      maxWidth="sm"
      sx={{ py: { xs: 8, md: 12 }, textAlign: 'center', overflowWrap: 'anywhere' }}
    >
      <Box sx={{ mb: 2, minHeight: 72 }} aria-live="polite">
        {outcome === 'working' ? (
          <CircularProgress aria-label={t('loading')} />
        ) : (
          (ICONS[outcome] ?? null)
        )}
      </Box>
      <Typography variant="h4" component="h1" gutterBottom>
        {title}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mb: 4 }} role="status">
        {description}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ justifyContent: 'center' }}>
        {children}
        <Button component={RouterLink} to="/" variant="outlined">
          {t('backHome')}
        </Button>
      </Stack>
    </Container>
  );
}
