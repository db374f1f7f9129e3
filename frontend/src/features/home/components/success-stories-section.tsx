import FormatQuoteIcon from '@mui/icons-material/FormatQuote';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { PageSection } from '../../../components/page-section';
import { useNamespace } from '../../../lib/translations';
import { HOME_SECTIONS_NAMESPACE } from '../home-sections-namespace';
import { SUCCESS_STORIES } from '../success-stories';

const TILE_BACKGROUNDS = [
  'linear-gradient(135deg, #4c1d95, #7e22ce)',
  'linear-gradient(135deg, #9d174d, #be123c)',
  'linear-gradient(135deg, #075985, #3730a3)',
  'linear-gradient(135deg, #065f46, #0e7490)',
  'linear-gradient(135deg, #92400e, #9f1239)',
  'linear-gradient(135deg, #1e293b, #4338ca)',
];

/**
 * 'Nos Succès' (its French title): six client testimonials. Each quote is
 * always shown, at every width: there is no hover on a touch screen, and a
 * testimonial is read, not discovered.
 */
export function SuccessStoriesSection() {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);
  return (
    <PageSection
      headingId="success-heading"
      title={t('successStories.title')}
      subtitle={t('successStories.subtitle')}
    >
      <Grid container spacing={3} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {SUCCESS_STORIES.map((story, index) => (
          <Grid key={story.id} component="li" size={{ xs: 12, sm: 6, md: 4 }}>
            <Box
              component="article"
              aria-labelledby={`success-${story.id}`}
              sx={{
                height: '100%',
                display: 'flex',
                flexDirection: 'column',
                gap: 1.5,
                borderRadius: 3,
                color: 'common.white',
                background: TILE_BACKGROUNDS[index % TILE_BACKGROUNDS.length],
                p: 3,
              }}
            >
              <FormatQuoteIcon
                sx={{
                  fontSize: 36,
                  opacity: 0.7,
                  transform: (theme) => (theme.direction === 'rtl' ? 'scaleX(-1)' : 'none'),
                }}
                aria-hidden
              />
              <Typography component="blockquote" variant="body1" sx={{ m: 0, flexGrow: 1 }}>
                {t('successStories.quote', {
                  message: t(`successStories.items.${story.id}.message`),
                })}
              </Typography>
              <Box>
                <Typography id={`success-${story.id}`} variant="subtitle1" component="h3">
                  {t(`successStories.items.${story.id}.role`)}
                </Typography>
                <Typography variant="body2" sx={{ color: 'rgba(255, 255, 255, 0.9)' }}>
                  {story.period}
                </Typography>
              </Box>
            </Box>
          </Grid>
        ))}
      </Grid>
      <Box sx={{ textAlign: 'center', mt: 5 }}>
        <Button variant="contained" size="large" component={RouterLink} to="/contact">
          {t('successStories.cta')}
        </Button>
      </Box>
    </PageSection>
  );
}
