import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useNamespace } from '../../../lib/translations';
import { NEWSLETTER_NAMESPACE } from '../newsletter-namespace';

export interface NewsletterBannerProps {
  /**
   * The form (NewsletterForm). It needs the API client and is interactive
   * only, so the app builds it in the browser as the visitor nears it; the
   * banner's words are in the prerendered page.
   */
  form: ReactNode;
  /** The page titles the banner unless it sits inside a page that already says what it is. */
  headingLevel?: 'h2' | 'h3';
  /** The section's anchor. */
  id?: string;
}

/**
 * The newsletter banner: what the newsletter is, its form, and what its mails
 * may record, with the way to the privacy page that says the rest.
 */
export function NewsletterBanner({
  form,
  headingLevel = 'h2',
  id = 'newsletter',
}: NewsletterBannerProps) {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  return (
    <Box
      component="section"
      id={id}
      aria-labelledby="newsletter-heading"
      sx={{ py: { xs: 6, md: 8 }, bgcolor: 'action.hover' }}
    >
      <Container maxWidth="md" sx={{ textAlign: 'center' }}>
        <Typography id="newsletter-heading" variant="h4" component={headingLevel} gutterBottom>
          {t('title')}
        </Typography>
        <Typography sx={{ color: 'text.secondary', mb: 3 }}>{t('subtitle')}</Typography>
        {form}
        <Typography variant="body2" sx={{ color: 'text.secondary', mt: 2 }}>
          {t('tracking')}{' '}
          {/* Underlined: inside a sentence, colour alone would not tell it is a link. */}
          <Link component={RouterLink} to="/privacy" underline="always" color="inherit">
            {t('privacyLink')}
          </Link>
        </Typography>
      </Container>
    </Box>
  );
}
