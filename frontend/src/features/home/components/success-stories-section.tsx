import FormatQuoteIcon from '@mui/icons-material/FormatQuote';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { RevealTile } from '../../../components/reveal-tile';
import { PageSection } from '../../../components/page-section';
import { FIXED_FRENCH } from '../../../lib/fixed-french';
import { SUCCESS_CTA, SUCCESS_STORIES, SUCCESS_SUBTITLE, SUCCESS_TITLE } from '../success-stories';

const TILE_BACKGROUNDS = [
  'linear-gradient(135deg, #4c1d95, #7e22ce)',
  'linear-gradient(135deg, #9d174d, #be123c)',
  'linear-gradient(135deg, #075985, #3730a3)',
  'linear-gradient(135deg, #065f46, #0e7490)',
  'linear-gradient(135deg, #92400e, #9f1239)',
  'linear-gradient(135deg, #1e293b, #4338ca)',
];

/** 'Nos Succès': six client testimonials whose words appear on hover, focus or touch. */
export function SuccessStoriesSection() {
  return (
    <PageSection
      headingId="success-heading"
      title={SUCCESS_TITLE}
      subtitle={SUCCESS_SUBTITLE}
      {...FIXED_FRENCH}
    >
      <Grid container spacing={3} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {SUCCESS_STORIES.map((story, index) => (
          <Grid key={story.id} component="li" size={{ xs: 12, sm: 6, md: 4 }}>
            <RevealTile
              component="article"
              aria-label={`${story.role}, ${story.period}`}
              caption={
                <Typography variant="body2" component="blockquote" sx={{ m: 0 }}>
                  « {story.message} »
                </Typography>
              }
              sx={{
                minHeight: 240,
                borderRadius: 3,
                color: 'common.white',
                background: TILE_BACKGROUNDS[index % TILE_BACKGROUNDS.length],
                p: 3,
              }}
            >
              <FormatQuoteIcon sx={{ fontSize: 40, opacity: 0.6 }} aria-hidden />
              <Typography variant="h6" component="h3">
                {story.role}
              </Typography>
              <Typography variant="body2" sx={{ opacity: 0.9 }}>
                {story.period}
              </Typography>
            </RevealTile>
          </Grid>
        ))}
      </Grid>
      <Box sx={{ textAlign: 'center', mt: 5 }}>
        <Button variant="contained" size="large" component={RouterLink} to="/contact">
          {SUCCESS_CTA}
        </Button>
      </Box>
    </PageSection>
  );
}
