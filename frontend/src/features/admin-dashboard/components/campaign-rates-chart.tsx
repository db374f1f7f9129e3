import type { CampaignDto } from '@agency/contracts';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { useTheme } from '@mui/material/styles';
import { BarChart } from '@mui/x-charts/BarChart';
import { Link as RouterLink } from 'react-router-dom';
import { FigureTable } from '../../../components/admin/figure-table';
import { campaignRate, type RateKind } from '../../../lib/campaign-rate';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useLatestCampaignsQuery } from '../api/dashboard-api';
import { DASHBOARD_NAMESPACE } from '../dashboard-namespace';
import { ChartCard } from './chart-card';
import { CHART_HEIGHT, stateOf } from './chart-state';
import { latestSendsOf } from './latest-sends';

/** A campaign's rate to draw: none where it was not tracked or nothing was delivered yet. */
function drawnRate(campaign: CampaignDto, kind: RateKind): number | null {
  const rate = campaignRate(campaign, kind);
  return rate === 'not-tracked' ? null : rate;
}

/** A rate as the admin reads it: a percent in their numbering, "not tracked", or a dash. */
function useRateText() {
  const { t } = useNamespace(DASHBOARD_NAMESPACE);
  const format = useFormatters();
  const percent = (value: number) => t('analytics.percent', { value: format.number(value) });
  const rateText = (campaign: CampaignDto, kind: RateKind) => {
    const rate = campaignRate(campaign, kind);
    if (rate === 'not-tracked') return t('analytics.notTracked');
    return rate === null ? t('analytics.noRate') : percent(rate);
  };
  return { percent, rateText };
}

/** The rates under the drawing, each campaign's name a link to its report. */
function RatesTable({ title, sends }: { title: string; sends: readonly CampaignDto[] }) {
  const { t } = useNamespace(DASHBOARD_NAMESPACE);
  const { rateText } = useRateText();
  return (
    <>
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
        {t('analytics.ratesHint')}
      </Typography>
      <FigureTable
        label={title}
        headers={[t('analytics.campaign'), t('analytics.openRate'), t('analytics.clickRate')]}
        rows={sends.map((campaign) => ({
          key: campaign.id,
          cells: [
            <Link
              key="name"
              component={RouterLink}
              to={`/admin/campaigns/${campaign.id}/report`}
              sx={{ overflowWrap: 'anywhere' }}
            >
              {campaign.name}
            </Link>,
            <bdi key="open">{rateText(campaign, 'open')}</bdi>,
            <bdi key="click">{rateText(campaign, 'click')}</bdi>,
          ],
        }))}
      />
    </>
  );
}

/**
 * The last sends' open and click rates side by side (people's unique rates
 * over delivered), the figures in a table of links to each report.
 */
export function CampaignRatesChart() {
  const { t } = useNamespace(DASHBOARD_NAMESPACE);
  const theme = useTheme();
  const { percent } = useRateText();
  const query = useLatestCampaignsQuery(undefined);
  const sends = latestSendsOf(query.data?.items ?? []);
  const title = t('analytics.campaignRates');
  const tooltipText = (value: number | null) =>
    value === null ? t('analytics.noRate') : percent(value);
  return (
    <ChartCard
      title={title}
      state={stateOf(query, sends.length === 0)}
      emptyText={t('analytics.noCampaigns')}
      errorText={t('analytics.error')}
      onRetry={() => void query.refetch()}
      details={<RatesTable title={title} sends={sends} />}
    >
      <BarChart
        height={CHART_HEIGHT}
        xAxis={[{ scaleType: 'band', data: sends.map(({ name }) => name) }]}
        yAxis={[{ min: 0, max: 100, valueFormatter: (value: number) => percent(value) }]}
        series={[
          {
            data: sends.map((campaign) => drawnRate(campaign, 'open')),
            valueFormatter: tooltipText,
            label: t('analytics.openRate'),
            color: theme.palette.primary.main,
          },
          {
            data: sends.map((campaign) => drawnRate(campaign, 'click')),
            valueFormatter: tooltipText,
            label: t('analytics.clickRate'),
            color: theme.palette.secondary.main,
          },
        ]}
        disableKeyboardNavigation
      />
    </ChartCard>
  );
}
