import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { StatCard } from '../../../components/stat-card';
import { useAnchorNavigation } from '../../../lib/scroll';
import { useNamespace } from '../../../lib/translations';
import { HOME_SECTIONS_NAMESPACE } from '../home-sections-namespace';

const ABOUT_STATS = [
  { value: '150+', labelKey: 'about.stats.projects' },
  { value: '98%', labelKey: 'about.stats.satisfaction' },
  { value: '5M+', labelKey: 'about.stats.impressions' },
  { value: '24/7', labelKey: 'about.stats.support' },
] as const;

export function AboutSection() {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);
  const goToAnchor = useAnchorNavigation();

  return (
    <Box
      component="section"
      id="about"
      aria-labelledby="about-heading"
      sx={{ py: { xs: 6, md: 10 }, bgcolor: 'action.hover' }}
    >
      <Container>
        <Grid container spacing={6} sx={{ alignItems: 'center' }}>
          <Grid size={{ xs: 12, md: 6 }}>
            <Typography id="about-heading" variant="h4" component="h2" gutterBottom>
              {t('about.title')}
            </Typography>
            <Typography sx={{ color: 'text.secondary', mb: 2 }}>
              {t('about.description1')}
            </Typography>
            <Typography sx={{ color: 'text.secondary', mb: 3 }}>
              {t('about.description2')}
            </Typography>
            <Button variant="contained" onClick={() => goToAnchor('contact')}>
              {t('about.cta')}
            </Button>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <Grid container spacing={2}>
              {ABOUT_STATS.map(({ value, labelKey }) => (
                <Grid key={labelKey} size={6}>
                  <StatCard value={value} label={t(labelKey)} />
                </Grid>
              ))}
            </Grid>
          </Grid>
        </Grid>
      </Container>
    </Box>
  );
}
