import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { PageSection } from '../../../components/page-section';
import { useAnchorNavigation } from '../../../lib/scroll';
import { useNamespace } from '../../../lib/translations';
import { CASE_STUDIES, type CaseStudy } from '../home-content';
import { HOME_SECTIONS_NAMESPACE } from '../home-sections-namespace';

type CaseStudyMetricData = CaseStudy['metrics'][number];

/** One result of a case study: the figure and what it measures. */
function CaseStudyMetric({
  studyId,
  metric,
}: {
  studyId: CaseStudy['id'];
  metric: CaseStudyMetricData;
}) {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);

  return (
    <Box
      component="li"
      sx={{
        flex: 1,
        textAlign: 'center',
        p: 1,
        borderRadius: 2,
        bgcolor: 'action.selected',
      }}
    >
      <Typography component="p" variant="h6" color="primary" sx={{ fontWeight: 800 }} dir="ltr">
        {metric.value}
      </Typography>
      <Typography variant="caption" component="p">
        {t(`caseStudies.items.${studyId}.metrics.${metric.id}`)}
      </Typography>
    </Box>
  );
}

/** One case study card: industry, title, challenge, solution and its results. */
function CaseStudyCard({ study }: { study: CaseStudy }) {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);
  const { id, metrics } = study;

  return (
    <Card
      variant="outlined"
      component="article"
      aria-labelledby={`case-study-${id}`}
      sx={{ height: '100%' }}
    >
      <CardContent>
        <Chip
          label={t(`caseStudies.items.${id}.industry`)}
          color="primary"
          size="small"
          sx={{ mb: 2 }}
        />
        <Typography id={`case-study-${id}`} variant="h6" component="h3" gutterBottom>
          {t(`caseStudies.items.${id}.title`)}
        </Typography>
        <Typography variant="subtitle2" component="h4" color="secondary">
          {t('caseStudies.challenge')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
          {t(`caseStudies.items.${id}.challenge`)}
        </Typography>
        <Typography variant="subtitle2" component="h4" color="secondary">
          {t('caseStudies.solution')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
          {t(`caseStudies.items.${id}.solution`)}
        </Typography>
        <Typography variant="subtitle2" component="h4" color="secondary">
          {t('caseStudies.results')}
        </Typography>
        <Stack component="ul" direction="row" sx={{ listStyle: 'none', p: 0, m: 0, mt: 1, gap: 1 }}>
          {metrics.map((metric) => (
            <CaseStudyMetric key={metric.id} studyId={id} metric={metric} />
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** The translated case studies: challenge, solution and three results per industry. */
export function CaseStudiesSection() {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);
  const goToAnchor = useAnchorNavigation();

  return (
    <PageSection
      headingId="case-studies-heading"
      title={t('caseStudies.title')}
      subtitle={t('caseStudies.subtitle')}
      sx={{ bgcolor: 'action.hover' }}
    >
      <Grid container spacing={3}>
        {CASE_STUDIES.map((study) => (
          <Grid key={study.id} size={{ xs: 12, md: 4 }}>
            <CaseStudyCard study={study} />
          </Grid>
        ))}
      </Grid>
      <Box sx={{ textAlign: 'center', mt: 5 }}>
        <Button
          variant="contained"
          size="large"
          href="#contact"
          onClick={(event) => {
            event.preventDefault();
            goToAnchor('contact');
          }}
        >
          {t('caseStudies.cta')}
        </Button>
      </Box>
    </PageSection>
  );
}
