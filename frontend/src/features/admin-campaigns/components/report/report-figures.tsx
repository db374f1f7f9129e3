import type { CampaignReportDto, UniqueAndTotal } from '@agency/contracts';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useFormatters } from '../../../../lib/use-formatters';
import { useNamespace } from '../../../../lib/translations';
import { REPORT_NAMESPACE } from '../../report-namespace';
import { FigureTable, ReportSection } from './report-section';

const TILES_SX = {
  display: 'grid',
  gap: 1.5,
  mt: 2,
  gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(4, minmax(0, 1fr))' },
  m: 0,
  p: 0,
};

/** One figure and what it counts, as a term and its value. */
function FigureTile({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }}>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" variant="h5" sx={{ m: 0, fontWeight: 700 }}>
        {/* Figures read left to right on an Arabic page too. */}
        <bdi>{value}</bdi>
      </Typography>
      {hint ? (
        <Typography component="dd" variant="caption" sx={{ m: 0, color: 'text.secondary' }}>
          {hint}
        </Typography>
      ) : null}
    </Paper>
  );
}

/** Sent, delivered, failed, bounces, complaints and unsubscribes. */
export function DeliveryFigures({ delivery }: { delivery: CampaignReportDto['delivery'] }) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const format = useFormatters();
  const figures = [
    ['sent', delivery.sent],
    ['delivered', delivery.delivered],
    ['failed', delivery.failed],
    ['bouncedHard', delivery.bounced.hard],
    ['bouncedSoft', delivery.bounced.soft],
    ['complaints', delivery.complaints],
    ['unsubscribes', delivery.unsubscribes],
  ] as const;
  return (
    <ReportSection title={t('delivery.title')}>
      <Box component="dl" sx={{ ...TILES_SX, mt: 2 }}>
        {figures.map(([key, value]) => (
          <FigureTile key={key} label={t(`delivery.${key}`)} value={format.number(value)} />
        ))}
      </Box>
    </ReportSection>
  );
}

/** A rate over delivered (0..100), or a dash while nothing was delivered. */
export function useRateText() {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const format = useFormatters();
  return (rate: number | null) =>
    rate === null ? t('none') : t('percent', { value: format.number(rate) });
}

/**
 * People beside machines, each with unique and total in columns of their
 * own: two figures are never added together under one label.
 */
function CountsTable({
  label,
  rows,
}: {
  label: string;
  rows: readonly { who: string; counts: UniqueAndTotal }[];
}) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const format = useFormatters();
  return (
    <>
      <Typography component="h3" variant="subtitle1" sx={{ mt: 2, fontWeight: 600 }}>
        {label}
      </Typography>
      <FigureTable
        label={label}
        headers={[t('engagement.who'), t('engagement.unique'), t('engagement.total')]}
        rows={rows.map(({ who, counts }) => ({
          key: who,
          cells: [who, format.number(counts.unique), format.number(counts.total)],
        }))}
      />
    </>
  );
}

/** Opens and clicks, people and machines side by side, and the rates over delivered. */
export function EngagementFigures({ report }: { report: CampaignReportDto }) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const rate = useRateText();
  const { opens, clicks, tracking } = report;
  return (
    <ReportSection title={t('engagement.title')} hint={t('engagement.hint')}>
      <Box component="dl" sx={{ ...TILES_SX, mt: 2 }}>
        <FigureTile
          label={t('engagement.openRate')}
          value={rate(report.rates.open)}
          hint={t('engagement.rateHint')}
        />
        <FigureTile
          label={t('engagement.clickRate')}
          value={rate(report.rates.click)}
          hint={t('engagement.rateHint')}
        />
      </Box>
      {tracking.opens ? (
        <>
          <CountsTable
            label={t('engagement.opens')}
            rows={[
              { who: t('engagement.people'), counts: opens.people },
              { who: t('engagement.machines'), counts: opens.machines },
            ]}
          />
          {opens.implied > 0 ? (
            <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
              {t('engagement.implied', { count: opens.implied })}
            </Typography>
          ) : null}
        </>
      ) : null}
      {tracking.clicks ? (
        <CountsTable
          label={t('engagement.clicks')}
          rows={[
            { who: t('engagement.people'), counts: clicks.people },
            { who: t('engagement.scanners'), counts: clicks.scanners },
          ]}
        />
      ) : null}
    </ReportSection>
  );
}
