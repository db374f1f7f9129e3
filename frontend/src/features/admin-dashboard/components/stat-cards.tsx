import CampaignIcon from '@mui/icons-material/Campaign';
import ContactMailIcon from '@mui/icons-material/ContactMail';
import DateRangeIcon from '@mui/icons-material/DateRange';
import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { LoadError } from '../../../components/admin/load-error';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useDashboardStatsQuery } from '../api/dashboard-api';
import { DASHBOARD_NAMESPACE } from '../dashboard-namespace';

interface FigureProps {
  label: string;
  value: string | undefined;
  hint: string;
  icon: ReactNode;
}

function Figure({ label, value, hint, icon }: FigureProps) {
  return (
    <Paper variant="outlined" sx={{ p: 2.5, height: '100%' }}>
      <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'flex-start' }}>
        <div>
          <Typography
            component="h2"
            variant="body2"
            sx={{ color: 'text.secondary', fontWeight: 600 }}
          >
            {label}
          </Typography>
          <Typography component="p" variant="h4" sx={{ fontWeight: 800, my: 0.5 }}>
            {value ?? <Skeleton width={64} />}
          </Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {value === undefined ? <Skeleton width={80} /> : hint}
          </Typography>
        </div>
        <Stack sx={{ color: 'primary.main' }} aria-hidden>
          {icon}
        </Stack>
      </Stack>
    </Paper>
  );
}

/** The spec's four figures: contacts (+ today), subscribers, campaigns, this week. */
export function StatCards() {
  const { t } = useNamespace(DASHBOARD_NAMESPACE);
  const format = useFormatters();
  const { data, isError, refetch } = useDashboardStatsQuery(undefined);

  if (isError && !data) {
    return <LoadError title={t('stats.error')} onRetry={() => void refetch()} />;
  }
  const value = (figure: number | undefined) =>
    figure === undefined ? undefined : format.number(figure);
  const figures: FigureProps[] = [
    {
      label: t('stats.totalContacts'),
      value: value(data?.totalContacts),
      hint: t('stats.today', { count: data?.todayContacts ?? 0 }),
      icon: <ContactMailIcon />,
    },
    {
      label: t('stats.subscribers'),
      value: value(data?.totalSubscribers),
      hint: t('stats.confirmedHint'),
      icon: <MarkEmailReadIcon />,
    },
    {
      label: t('stats.campaigns'),
      value: value(data?.totalCampaigns),
      hint: t('stats.campaignsHint'),
      icon: <CampaignIcon />,
    },
    {
      label: t('stats.thisWeek'),
      value: value(data?.thisWeekContacts),
      hint: t('stats.thisWeekHint'),
      icon: <DateRangeIcon />,
    },
  ];
  return (
    <Grid container spacing={2} component="section" aria-label={t('stats.label')}>
      {figures.map((figure) => (
        <Grid key={figure.label} size={{ xs: 12, sm: 6, lg: 3 }}>
          <Figure {...figure} />
        </Grid>
      ))}
    </Grid>
  );
}
