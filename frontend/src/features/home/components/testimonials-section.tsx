import StarIcon from '@mui/icons-material/Star';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { PageSection } from '../../../components/page-section';
import { useNamespace } from '../../../lib/translations';
import { TESTIMONIALS, TESTIMONIAL_PHOTO_FALLBACK, TESTIMONIAL_STARS } from '../home-content';
import { HOME_SECTIONS_NAMESPACE } from '../home-sections-namespace';

const PHOTO_SIZE = 56;

/**
 * A client portrait from the stock-photo host. If the host is blocked or down,
 * the local placeholder takes its place at the same size, so nothing moves.
 * The prerendered image may fail before the section is hydrated, when no
 * `onError` is listening yet: hydration looks at the image once too.
 */
export function TestimonialPhoto({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  const image = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const element = image.current;
    if (element?.complete && element.naturalWidth === 0) setFailed(true);
  }, []);
  return (
    <Box
      component="img"
      ref={image}
      src={failed ? TESTIMONIAL_PHOTO_FALLBACK : src}
      alt={alt}
      width={PHOTO_SIZE}
      height={PHOTO_SIZE}
      loading="lazy"
      decoding="async"
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      sx={{ borderRadius: '50%', objectFit: 'cover', bgcolor: 'grey.200', flexShrink: 0 }}
    />
  );
}

export function TestimonialsSection() {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);
  return (
    <PageSection
      headingId="testimonials-heading"
      title={t('testimonials.title')}
      subtitle={t('testimonials.subtitle')}
    >
      <Grid container spacing={3}>
        {TESTIMONIALS.map(({ id, photo }) => (
          <Grid key={id} size={{ xs: 12, md: 4 }}>
            <Card variant="outlined" component="figure" sx={{ m: 0, height: '100%' }}>
              <CardContent>
                <Stack
                  direction="row"
                  role="img"
                  aria-label={t('testimonials.rating')}
                  sx={{ color: '#b45309', mb: 2 }}
                >
                  {Array.from({ length: TESTIMONIAL_STARS }, (_, star) => (
                    <StarIcon key={star} fontSize="small" />
                  ))}
                </Stack>
                <Typography component="blockquote" sx={{ m: 0, mb: 3 }}>
                  {t(`testimonials.items.${id}.content`)}
                </Typography>
                <Stack
                  component="figcaption"
                  direction="row"
                  spacing={2}
                  sx={{ alignItems: 'center' }}
                >
                  <TestimonialPhoto src={photo} alt={t(`testimonials.items.${id}.alt`)} />
                  <Box>
                    <Typography sx={{ fontWeight: 700 }}>
                      {t(`testimonials.items.${id}.name`)}
                    </Typography>
                    <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                      {t(`testimonials.items.${id}.role`)}
                    </Typography>
                  </Box>
                </Stack>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
    </PageSection>
  );
}
