import CheckIcon from '@mui/icons-material/Check';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useAnchorNavigation } from '../../../lib/scroll';
import { useNamespace } from '../../../lib/translations';
import { HOME_SECTIONS_NAMESPACE } from '../home-sections-namespace';
import { PACKAGES } from '../packages';

export function PackagesSection() {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);
  const goToAnchor = useAnchorNavigation();

  return (
    <Box
      component="section"
      id="packages"
      aria-labelledby="packages-heading"
      sx={{ py: { xs: 6, md: 10 } }}
    >
      <Container>
        <Box sx={{ textAlign: 'center', mb: 5 }}>
          <Typography id="packages-heading" variant="h4" component="h2" gutterBottom>
            {t('packages.title')}
          </Typography>
          <Typography sx={{ color: 'text.secondary' }}>{t('packages.subtitle')}</Typography>
        </Box>
        <Grid container spacing={3} sx={{ alignItems: 'stretch' }}>
          {PACKAGES.map((pack) => (
            <Grid key={pack.id} size={{ xs: 12, md: 4 }}>
              <Card
                variant="outlined"
                sx={{
                  height: '100%',
                  display: 'flex',
                  flexDirection: 'column',
                  borderColor: pack.popular ? 'primary.main' : undefined,
                  borderWidth: pack.popular ? 2 : 1,
                }}
              >
                <CardContent sx={{ flexGrow: 1 }}>
                  {pack.popular ? (
                    <Chip
                      label={t('packages.popular')}
                      color="primary"
                      size="small"
                      sx={{ mb: 1 }}
                    />
                  ) : null}
                  <Typography variant="h5" component="h3">
                    {t(`packages.items.${pack.id}.name`)}
                  </Typography>
                  <Typography variant="body2" sx={{ color: 'text.secondary', my: 1 }}>
                    {t(`packages.items.${pack.id}.description`)}
                  </Typography>
                  <Typography variant="h6" component="p" color="primary">
                    {t('packages.price')}
                  </Typography>
                  <List dense>
                    {pack.features.map((feature) => (
                      <ListItem key={feature} disableGutters>
                        <ListItemIcon sx={{ minWidth: 32 }}>
                          <CheckIcon color="success" fontSize="small" />
                        </ListItemIcon>
                        <ListItemText
                          primary={t(`packages.items.${pack.id}.features.${feature}`)}
                        />
                      </ListItem>
                    ))}
                  </List>
                </CardContent>
                <CardActions sx={{ p: 2 }}>
                  <Button
                    fullWidth
                    variant={pack.popular ? 'contained' : 'outlined'}
                    onClick={() => goToAnchor('contact')}
                  >
                    {t('packages.cta')}
                  </Button>
                </CardActions>
              </Card>
            </Grid>
          ))}
        </Grid>
      </Container>
    </Box>
  );
}
