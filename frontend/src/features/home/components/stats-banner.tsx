import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { useNamespace } from '../../../lib/translations';
import { visuallyHidden } from '../../../lib/visually-hidden';
import { BANNER_STATS } from '../home-content';
import { HOME_SECTIONS_NAMESPACE } from '../home-sections-namespace';

/** Four headline figures, each with its label and a line of context. */
export function StatsBanner() {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);
  return (
    <Box
      component="section"
      aria-labelledby="stats-heading"
      sx={{
        py: { xs: 5, md: 7 },
        color: 'common.white',
        background: 'linear-gradient(135deg, #4c1d95, #9d174d)',
      }}
    >
      <Container>
        <Typography id="stats-heading" component="h2" sx={visuallyHidden}>
          {t('stats.title')}
        </Typography>
        <Grid container spacing={4} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {BANNER_STATS.map(({ id, value }) => (
            <Grid key={id} component="li" size={{ xs: 6, md: 3 }} sx={{ textAlign: 'center' }}>
              <Typography component="p" variant="h3" sx={{ fontWeight: 800 }}>
                {/* Isolated left to right: "150+" and "98%" read the same on an Arabic page. */}
                <bdi dir="ltr">{value}</bdi>
              </Typography>
              <Typography component="h3" variant="subtitle1" sx={{ fontWeight: 700 }}>
                {t(`stats.items.${id}.label`)}
              </Typography>
              <Typography variant="body2" sx={{ opacity: 0.9 }}>
                {t(`stats.items.${id}.description`)}
              </Typography>
            </Grid>
          ))}
        </Grid>
      </Container>
    </Box>
  );
}
