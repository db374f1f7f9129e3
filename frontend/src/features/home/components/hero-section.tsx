import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Stack from '@mui/material/Stack';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { useAnchorNavigation } from '../../../lib/scroll';
import { useNamespace } from '../../../lib/translations';
import { HOME_NAMESPACE } from '../home-namespace';
import { HeroParticles } from './hero-particles';

/** The two ways on from the hero: down to the packages, or to the contact page. */
function HeroCallsToAction() {
  const { t } = useNamespace(HOME_NAMESPACE);
  const goToAnchor = useAnchorNavigation();

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center' }}>
      <Button
        variant="contained"
        size="large"
        href="#packages"
        onClick={(event) => {
          event.preventDefault();
          goToAnchor('packages');
        }}
        endIcon={
          <ArrowForwardIcon
            sx={{ transform: (theme) => (theme.direction === 'rtl' ? 'scaleX(-1)' : 'none') }}
          />
        }
      >
        {t('hero.primary')}
      </Button>
      <Button variant="outlined" size="large" component={RouterLink} to="/contact">
        {t('hero.secondary')}
      </Button>
    </Stack>
  );
}

/** The first screen of the home page: badge, title, subtitle and the calls to action. */
export function HeroSection() {
  const { t } = useNamespace(HOME_NAMESPACE);

  return (
    <Box
      component="section"
      aria-labelledby="hero-heading"
      sx={{
        position: 'relative',
        // The hero fills the first screen (below the bar); the page goes on below the fold.
        minHeight: { xs: 'calc(100svh - 56px)', sm: 'calc(100svh - 64px)' },
        display: 'flex',
        alignItems: 'center',
        py: { xs: 8, md: 12 },
        background: (theme) =>
          `radial-gradient(circle at 20% 20%, ${alpha(theme.palette.primary.main, 0.18)}, transparent 55%), radial-gradient(circle at 80% 0%, ${alpha(theme.palette.secondary.main, 0.14)}, transparent 50%)`,
      }}
    >
      <HeroParticles />
      <Container maxWidth="md" sx={{ position: 'relative', textAlign: 'center' }}>
        <Typography
          component="p"
          variant="body2"
          sx={{
            display: 'inline-block',
            mb: 3,
            px: 2,
            py: 0.5,
            border: 1,
            borderRadius: 4,
            color: 'primary.main',
            fontWeight: 600,
          }}
        >
          {t('hero.badge')}
        </Typography>
        <Typography
          id="hero-heading"
          variant="h2"
          component="h1"
          sx={{ fontSize: { xs: '2.25rem', md: '3.5rem' }, mb: 2 }}
        >
          {t('hero.title')}
        </Typography>
        <Typography
          variant="h6"
          component="p"
          sx={{ color: 'text.secondary', fontWeight: 400, mb: 5 }}
        >
          {t('hero.subtitle')}
        </Typography>
        <HeroCallsToAction />
      </Container>
    </Box>
  );
}
