import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { ContactInfo } from './contact-info';
import { useNamespace } from '../../../lib/translations';
import { CONTACT_NAMESPACE } from '../contact-namespace';

export interface ContactSectionProps {
  /**
   * The enquiry form (ContactForm). It needs the API client and is interactive
   * only, so the app builds it in the browser as the visitor nears it; the
   * section's words around it are in the prerendered page.
   */
  form: ReactNode;
  /** The anchor id ("contact" links). */
  id?: string;
  /** The home page titles this section itself; the contact page has its own h1 above it. */
  showHeading?: boolean;
}

/** The enquiry form beside the contact details; the target of every #contact link. */
export function ContactSection({ form, id = 'contact', showHeading = true }: ContactSectionProps) {
  const { t } = useNamespace(CONTACT_NAMESPACE);

  return (
    <Box
      component="section"
      id={id}
      aria-labelledby={showHeading ? 'contact-heading' : undefined}
      sx={{ py: { xs: 6, md: 10 } }}
    >
      <Container>
        {showHeading ? (
          <Box sx={{ textAlign: 'center', mb: 5 }}>
            <Typography id="contact-heading" variant="h4" component="h2" gutterBottom>
              {t('contact.sectionTitle')}
            </Typography>
            <Typography sx={{ color: 'text.secondary' }}>{t('contact.sectionSubtitle')}</Typography>
          </Box>
        ) : null}
        <Grid container spacing={4}>
          <Grid size={{ xs: 12, md: 7 }}>
            <Paper variant="outlined" sx={{ p: { xs: 2, sm: 4 } }}>
              <Typography variant="h6" component="h3" sx={{ mb: 2 }}>
                {t('contact.form.title')}
              </Typography>
              {form}
            </Paper>
          </Grid>
          <Grid size={{ xs: 12, md: 5 }}>
            <ContactInfo />
          </Grid>
        </Grid>
      </Container>
    </Box>
  );
}
