import Grid from '@mui/material/Grid';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { LineChart } from '@mui/x-charts/LineChart';
import { useTranslation } from 'react-i18next';
import { formatTagOf } from '@agency/contracts';
import { toLocale } from '../../../lib/locale';
import { useFormatters, type Formatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useAdminCan } from '../../../lib/admin-session';
import {
  useDashboardStatsQuery,
  useEnquiryTrendQuery,
  useLatestCampaignsQuery,
} from '../api/dashboard-api';
import { DASHBOARD_NAMESPACE } from '../dashboard-namespace';
import { CampaignRatesChart } from './campaign-rates-chart';
import { ChartCard } from './chart-card';
import { CHART_HEIGHT, stateOf } from './chart-state';
import { latestSendsOf } from './latest-sends';

/** The spec's period for enquiries per day. */
export const TREND_DAYS = 30;

/** A day key "2026-05-10" as a short local date (read as UTC so it never shifts a day). */
function dayLabel(day: string, locale: string): string {
  return new Intl.DateTimeFormat(formatTagOf(toLocale(locale)), {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
}

/** A chart's numbers (ticks, tooltips) in the admin's one numbering, not the browser's. */
function countFormatter(format: Formatters) {
  return (value: number | null) => (value === null ? '' : format.number(value));
}

function EnquiriesPerDay() {
  const { t, i18n } = useNamespace(DASHBOARD_NAMESPACE);
  const theme = useTheme();
  const format = useFormatters();
  const query = useEnquiryTrendQuery(TREND_DAYS);
  const days = query.data?.days ?? [];
  const labels = days.map(({ date }) => dayLabel(date, i18n.language));
  const empty = days.every(({ count }) => count === 0);
  return (
    <ChartCard
      title={t('analytics.perDay')}
      state={stateOf(query, empty)}
      emptyText={t('analytics.noEnquiries')}
      errorText={t('analytics.error')}
      onRetry={() => void query.refetch()}
      table={{
        headers: [t('analytics.date'), t('analytics.enquiries')],
        rows: days.map(({ count }, index) => [labels[index] ?? '', format.number(count)]),
      }}
    >
      <LineChart
        height={CHART_HEIGHT}
        xAxis={[{ scaleType: 'point', data: labels }]}
        yAxis={[{ tickMinStep: 1, valueFormatter: countFormatter(format) }]}
        series={[
          {
            data: days.map(({ count }) => count),
            valueFormatter: countFormatter(format),
            label: t('analytics.enquiries'),
            color: theme.palette.primary.main,
          },
        ]}
        hideLegend
        disableKeyboardNavigation
      />
    </ChartCard>
  );
}

function EnquiriesByService() {
  const { t } = useNamespace(DASHBOARD_NAMESPACE);
  const theme = useTheme();
  const format = useFormatters();
  const { t: tShell } = useTranslation();
  const query = useDashboardStatsQuery(undefined);
  const services = query.data?.contactsByService ?? [];
  const names = services.map(({ service }) => tShell(`serviceNames.${service}`));
  return (
    <ChartCard
      title={t('analytics.byService')}
      state={stateOf(query, (query.data?.totalContacts ?? 0) === 0)}
      emptyText={t('analytics.noServices')}
      errorText={t('analytics.error')}
      onRetry={() => void query.refetch()}
      table={{
        headers: [t('analytics.service'), t('analytics.enquiries')],
        rows: services.map(({ count }, index) => [names[index] ?? '', format.number(count)]),
      }}
    >
      <BarChart
        height={CHART_HEIGHT}
        layout="horizontal"
        yAxis={[{ scaleType: 'band', data: names, width: 150 }]}
        xAxis={[{ tickMinStep: 1, valueFormatter: countFormatter(format) }]}
        series={[
          {
            data: services.map(({ count }) => count),
            valueFormatter: countFormatter(format),
            label: t('analytics.enquiries'),
            color: theme.palette.primary.main,
          },
        ]}
        hideLegend
        disableKeyboardNavigation
      />
    </ChartCard>
  );
}

function CampaignResults() {
  const { t } = useNamespace(DASHBOARD_NAMESPACE);
  const theme = useTheme();
  const format = useFormatters();
  const query = useLatestCampaignsQuery(undefined);
  const sends = latestSendsOf(query.data?.items ?? []);
  return (
    <ChartCard
      title={t('analytics.campaignResults')}
      state={stateOf(query, sends.length === 0)}
      emptyText={t('analytics.noCampaigns')}
      errorText={t('analytics.error')}
      onRetry={() => void query.refetch()}
      table={{
        headers: [t('analytics.campaign'), t('analytics.sent'), t('analytics.failed')],
        rows: sends.map(({ name, sentCount, failedCount }) => [
          name,
          format.number(sentCount),
          format.number(failedCount),
        ]),
      }}
    >
      <BarChart
        height={CHART_HEIGHT}
        xAxis={[{ scaleType: 'band', data: sends.map(({ name }) => name) }]}
        yAxis={[{ tickMinStep: 1, valueFormatter: countFormatter(format) }]}
        series={[
          {
            data: sends.map(({ sentCount }) => sentCount),
            valueFormatter: countFormatter(format),
            label: t('analytics.sent'),
            stack: 'result',
            color: theme.palette.success.main,
          },
          {
            data: sends.map(({ failedCount }) => failedCount),
            valueFormatter: countFormatter(format),
            label: t('analytics.failed'),
            stack: 'result',
            color: theme.palette.error.main,
          },
        ]}
        disableKeyboardNavigation
      />
    </ChartCard>
  );
}

/**
 * Analytics: enquiries per day over 30 days and by service; for staff who may
 * read campaigns, the last sends' results and their open and click rates.
 */
export function AnalyticsPanel() {
  const campaigns = useAdminCan('campaigns:read');
  return (
    <Grid container spacing={2}>
      <Grid size={12}>
        <EnquiriesPerDay />
      </Grid>
      <Grid size={{ xs: 12, lg: campaigns ? 6 : 12 }}>
        <EnquiriesByService />
      </Grid>
      {campaigns ? (
        <>
          <Grid size={{ xs: 12, lg: 6 }}>
            <CampaignResults />
          </Grid>
          <Grid size={12}>
            <CampaignRatesChart />
          </Grid>
        </>
      ) : null}
    </Grid>
  );
}
