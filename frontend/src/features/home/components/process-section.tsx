import Avatar from '@mui/material/Avatar';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { PageSection } from '../../../components/page-section';
import { useNamespace } from '../../../lib/translations';
import { PROCESS_STEPS } from '../home-content';
import { HOME_SECTIONS_NAMESPACE } from '../home-sections-namespace';

/** How a collaboration runs, in four numbered steps. */
export function ProcessSection() {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);
  return (
    <PageSection
      headingId="process-heading"
      title={t('process.title')}
      subtitle={t('process.subtitle')}
    >
      <Grid container spacing={3} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {PROCESS_STEPS.map((step, index) => (
          <Grid key={step} component="li" size={{ xs: 12, sm: 6, md: 3 }}>
            <Paper variant="outlined" sx={{ p: 3, height: '100%' }}>
              <Avatar
                sx={{ bgcolor: 'primary.main', mb: 2, fontWeight: 700 }}
                aria-label={t('process.stepLabel', { number: index + 1 })}
              >
                {index + 1}
              </Avatar>
              <Typography variant="h6" component="h3" gutterBottom>
                {t(`process.steps.${step}.title`)}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t(`process.steps.${step}.description`)}
              </Typography>
            </Paper>
          </Grid>
        ))}
      </Grid>
    </PageSection>
  );
}
