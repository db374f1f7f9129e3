import type { StatsDto } from '@agency/contracts';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/admin/load-error';
import { useNamespace } from '../../../lib/translations';
import { useDashboardStatsQuery } from '../api/dashboard-api';
import { DASHBOARD_NAMESPACE } from '../dashboard-namespace';

/** A bar's width: count over total, capped at 100%, 0 when there is nothing. */
export function shareOf(count: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, (count / total) * 100);
}

function Bars({ stats }: { stats: StatsDto }) {
  const { t } = useNamespace(DASHBOARD_NAMESPACE);
  const { t: tShell } = useTranslation();
  if (stats.totalContacts === 0) {
    return <Typography sx={{ color: 'text.secondary' }}>{t('services.empty')}</Typography>;
  }
  return (
    <Stack component="ul" spacing={2} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {stats.contactsByService.map(({ service, count }) => {
        const name = tShell(`serviceNames.${service}`);
        const share = shareOf(count, stats.totalContacts);
        return (
          <li key={service}>
            <Stack direction="row" sx={{ justifyContent: 'space-between', mb: 0.5 }}>
              <Typography variant="body2" sx={{ fontWeight: 600 }}>
                {name}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {t('services.share', { count, total: stats.totalContacts })}
              </Typography>
            </Stack>
            <LinearProgress
              variant="determinate"
              value={share}
              aria-label={name}
              aria-valuetext={`${Math.round(share)}%`}
              sx={{ height: 8, borderRadius: 4 }}
            />
          </li>
        );
      })}
    </Stack>
  );
}

/** How the enquiries split between the six services. */
export function ServiceDistribution() {
  const { t } = useNamespace(DASHBOARD_NAMESPACE);
  const { data, isError, refetch } = useDashboardStatsQuery(undefined);
  return (
    <Paper variant="outlined" sx={{ p: 2.5, height: '100%' }}>
      <Typography variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('services.title')}
      </Typography>
      {isError && !data ? (
        <LoadError title={t('stats.error')} onRetry={() => void refetch()} />
      ) : data ? (
        <Bars stats={data} />
      ) : (
        <Stack spacing={2} aria-busy>
          {Array.from({ length: 6 }, (_, index) => (
            <Skeleton key={index} variant="rounded" height={28} />
          ))}
        </Stack>
      )}
    </Paper>
  );
}
