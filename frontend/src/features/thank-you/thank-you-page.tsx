import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import EmailIcon from '@mui/icons-material/Email';
import PhoneIcon from '@mui/icons-material/Phone';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import { StatCard } from '../../components/stat-card';
import { CONTACT_DETAILS } from '../../lib/contact-details';
import { useNamespace } from '../../lib/translations';
import { THANK_YOU_NAMESPACE } from './thank-you-namespace';

const STEPS = ['review', 'strategy', 'response'] as const;

// A figure with a unit keeps them apart: the figure is the same in every
// language, the unit ("h", "ساعة") is a text of each.
const CLAIMS: readonly { value: string; unitKey?: string; labelKey: string }[] = [
  { value: '100+', labelKey: 'thankYou.stats.businesses' },
  { value: '300%', labelKey: 'thankYou.stats.growth' },
  { value: '24', unitKey: 'thankYou.stats.responseUnit', labelKey: 'thankYou.stats.response' },
  { value: '99%', labelKey: 'thankYou.stats.satisfaction' },
];

/** The confirmation at the top: a check mark, the title and what was received. */
function ThankYouHeading() {
  const { t } = useNamespace(THANK_YOU_NAMESPACE);

  return (
    <Box sx={{ textAlign: 'center', mb: 6 }}>
      <CheckCircleIcon color="success" sx={{ fontSize: 72, mb: 2 }} aria-hidden />
      <Typography variant="h3" component="h1" gutterBottom>
        {t('thankYou.title')}
      </Typography>
      <Typography variant="h6" component="p" sx={{ color: 'text.secondary', fontWeight: 400 }}>
        {t('thankYou.description')}
      </Typography>
    </Box>
  );
}

/** The numbered list of what happens next. */
function NextStepsCard() {
  const { t } = useNamespace(THANK_YOU_NAMESPACE);

  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, md: 4 }, mb: 4 }}>
      <Typography variant="h5" component="h2" gutterBottom>
        {t('thankYou.nextTitle')}
      </Typography>
      <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {STEPS.map((step, index) => (
          <Stack
            key={step}
            component="li"
            direction="row"
            spacing={2}
            sx={{ alignItems: 'flex-start' }}
          >
            <Avatar sx={{ bgcolor: 'primary.main', width: 36, height: 36 }} aria-hidden>
              {index + 1}
            </Avatar>
            <Box>
              <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 700 }}>
                {t(`thankYou.steps.${step}.title`)}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t(`thankYou.steps.${step}.description`)}
              </Typography>
            </Box>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}

/** The agency's email and phone, for a visitor who would rather not wait. */
function DirectContactButtons() {
  const { t } = useNamespace(THANK_YOU_NAMESPACE);

  return (
    <Box sx={{ textAlign: 'center', mb: 4 }}>
      <Typography sx={{ mb: 2 }}>{t('thankYou.direct')}</Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center' }}>
        <Button
          variant="outlined"
          startIcon={<EmailIcon />}
          href={`mailto:${CONTACT_DETAILS.email}`}
        >
          {t('thankYou.emailUs')}
        </Button>
        <Button variant="outlined" startIcon={<PhoneIcon />} href={CONTACT_DETAILS.phoneHref}>
          {t('thankYou.callUs')}
        </Button>
      </Stack>
    </Box>
  );
}

/** The agency's figures, one stat card each. */
function ClaimsGrid() {
  const { t } = useNamespace(THANK_YOU_NAMESPACE);

  return (
    <Grid container spacing={2} sx={{ mb: 6 }}>
      {CLAIMS.map(({ value, unitKey, labelKey }) => (
        <Grid key={labelKey} size={{ xs: 6, md: 3 }}>
          <StatCard
            value={value}
            {...(unitKey && { unit: t(unitKey) })}
            label={t(labelKey)}
            size="medium"
          />
        </Grid>
      ))}
    </Grid>
  );
}

/** Where a successful enquiry lands: confirmation, what happens next, ways onward. */
export function ThankYouPage() {
  const { t } = useNamespace(THANK_YOU_NAMESPACE);

  return (
    <Container maxWidth="md" sx={{ py: { xs: 6, md: 10 } }}>
      <ThankYouHeading />

      <NextStepsCard />

      <DirectContactButtons />

      <ClaimsGrid />

      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'center' }}>
        <Button variant="contained" component={RouterLink} to="/portfolio">
          {t('thankYou.portfolio')}
        </Button>
        <Button variant="text" component={RouterLink} to="/">
          {t('thankYou.home')}
        </Button>
      </Stack>
    </Container>
  );
}
