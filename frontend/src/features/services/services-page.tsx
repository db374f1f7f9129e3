import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { PageHeader } from '../../components/page-header';
import { useAnchorNavigation } from '../../lib/scroll';
import { APPROACH_STEPS, SERVICE_OFFERS } from './service-offers';
import { useNamespace } from '../../lib/translations';
import { SERVICES_NAMESPACE } from './services-namespace';

/** /services, /services/:slug and /services-dedicated all show this page. */
export function ServicesPage() {
  const { t } = useNamespace(SERVICES_NAMESPACE);
  const goToAnchor = useAnchorNavigation();

  return (
    <>
      <PageHeader title={t('servicesPage.title')} subtitle={t('servicesPage.subtitle')} />
      <Container sx={{ py: { xs: 6, md: 8 } }}>
        <Grid container spacing={3}>
          {SERVICE_OFFERS.map((offer) => (
            <Grid key={offer} size={{ xs: 12, md: 6 }}>
              <Card
                variant="outlined"
                component="article"
                aria-labelledby={`service-${offer}`}
                sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}
              >
                <CardContent sx={{ flexGrow: 1 }}>
                  <Typography id={`service-${offer}`} variant="h5" component="h2" gutterBottom>
                    {t(`servicesPage.offers.${offer}.title`)}
                  </Typography>
                  <Typography variant="overline" component="h3" color="secondary">
                    {t('servicesPage.problem')}
                  </Typography>
                  <Typography variant="body2" sx={{ mb: 2 }}>
                    {t(`servicesPage.offers.${offer}.problem`)}
                  </Typography>
                  <Typography variant="overline" component="h3" color="secondary">
                    {t('servicesPage.approach')}
                  </Typography>
                  <Box component="ol" sx={{ mt: 0, mb: 2, paddingInlineStart: '24px' }}>
                    {APPROACH_STEPS.map((step) => (
                      <Typography key={step} component="li" variant="body2">
                        {t(`servicesPage.offers.${offer}.approach.${step}`)}
                      </Typography>
                    ))}
                  </Box>
                  <Typography variant="overline" component="h3" color="secondary">
                    {t('servicesPage.results')}
                  </Typography>
                  <Typography variant="body2">
                    {t(`servicesPage.offers.${offer}.results`)}
                  </Typography>
                </CardContent>
                <CardActions sx={{ p: 2 }}>
                  <Button
                    variant="contained"
                    href="#contact"
                    onClick={(event) => {
                      event.preventDefault();
                      goToAnchor('contact');
                    }}
                  >
                    {t('servicesPage.cta')}
                  </Button>
                </CardActions>
              </Card>
            </Grid>
          ))}
        </Grid>
      </Container>
    </>
  );
}
