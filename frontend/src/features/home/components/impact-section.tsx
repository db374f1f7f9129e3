import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { PageSection } from '../../../components/page-section';
import { usePrefersReducedMotion } from '../../../lib/use-prefers-reduced-motion';
import { useInViewOnce } from '../../../lib/use-in-view-once';
import { visuallyHidden } from '../../../lib/visually-hidden';
import { formatCount, useCountUp } from '../hooks/use-count-up';
import { useNamespace } from '../../../lib/translations';
import { HOME_SECTIONS_NAMESPACE } from '../home-sections-namespace';
import { IMPACT_METRICS, IMPACT_SERVICES, type ImpactMetric } from '../impact';

/** How long the metrics grid takes to slide in; the counters start when it has. */
export const IMPACT_ENTRANCE_MS = 700;
/** Spec 4: each counter starts 300 ms after the previous one. */
export const COUNTER_STAGGER_MS = 300;

function MetricCounter({
  metric,
  index,
  start,
  animate,
}: {
  metric: ImpactMetric;
  index: number;
  start: boolean;
  animate: boolean;
}) {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);
  const value = useCountUp(metric.number, {
    start,
    delayMs: IMPACT_ENTRANCE_MS + index * COUNTER_STAGGER_MS,
    animate,
  });
  const finalText = `${formatCount(metric.number, metric.number)}${metric.suffix}`;
  return (
    <Paper
      variant="outlined"
      sx={{ p: 3, height: '100%', textAlign: 'center', bgcolor: 'rgba(255,255,255,0.06)' }}
    >
      {/* The moving figure is for the eyes; screen readers get the final one once. */}
      <Typography
        variant="h3"
        component="p"
        sx={{ fontWeight: 800, color: 'common.white' }}
        aria-hidden
        data-count-up
        data-testid={`impact-counter-${metric.id}`}
      >
        {/* Isolated left to right: "150+" and "4.8/5" read the same on an Arabic page. */}
        <bdi dir="ltr">
          {formatCount(value, metric.number)}
          {metric.suffix}
        </bdi>
      </Typography>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700, color: 'grey.100' }}>
        <Box component="span" sx={visuallyHidden}>
          <bdi dir="ltr">{finalText}</bdi>{' '}
        </Box>
        {t(`impact.metrics.${metric.id}.label`)}
      </Typography>
      <Typography variant="body2" sx={{ color: 'grey.300' }}>
        {t(`impact.metrics.${metric.id}.description`)}
      </Typography>
    </Paper>
  );
}

/** The impact block ('NOTRE IMPACT MESURABLE'): counters that run once the grid has slid into view. */
export function ImpactSection() {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);
  const animate = !usePrefersReducedMotion();
  const { ref, inView: revealed } = useInViewOnce<HTMLDivElement>({ threshold: 0.2 });

  return (
    <PageSection
      headingId="impact-heading"
      eyebrow={t('impact.eyebrow')}
      title={t('impact.title')}
      subtitle={t('impact.intro')}
      tone="inverse"
      sx={{ bgcolor: '#130f24', color: 'common.white' }}
    >
      <Grid
        ref={ref}
        container
        spacing={3}
        data-revealed={revealed}
        sx={{
          mb: 6,
          opacity: revealed || !animate ? 1 : 0,
          transform: revealed || !animate ? 'none' : 'translateY(32px)',
          transition: `opacity ${IMPACT_ENTRANCE_MS}ms ease-out, transform ${IMPACT_ENTRANCE_MS}ms ease-out`,
        }}
      >
        {IMPACT_METRICS.map((metric, index) => (
          <Grid key={metric.id} size={{ xs: 12, sm: 6, md: 3 }}>
            <MetricCounter metric={metric} index={index} start={revealed} animate={animate} />
          </Grid>
        ))}
      </Grid>
      <Grid container spacing={3}>
        {IMPACT_SERVICES.map((service) => (
          <Grid key={service.id} size={{ xs: 12, sm: 6, md: 3 }}>
            <Box sx={{ p: 3, height: '100%', borderRadius: 3, background: service.gradient }}>
              <Typography variant="h6" component="h3" gutterBottom>
                {t(`impact.services.${service.id}.title`)}
              </Typography>
              <Typography variant="body2" sx={{ opacity: 0.95 }}>
                {t(`impact.services.${service.id}.description`)}
              </Typography>
            </Box>
          </Grid>
        ))}
      </Grid>
    </PageSection>
  );
}
