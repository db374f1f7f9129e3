import type { CampaignTimelinePointDto } from '@agency/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTheme } from '@mui/material/styles';
import { LineChart } from '@mui/x-charts/LineChart';
import { useState } from 'react';
import { useFormatters, type Formatters } from '../../../../lib/use-formatters';
import { useNamespace } from '../../../../lib/translations';
import { REPORT_NAMESPACE } from '../../report-namespace';
import { FigureTable, ReportSection } from './report-section';

const CHART_HEIGHT = 280;

/** An hour's bucket by its time on the agency's clock, a day's by its date. */
function bucketLabel(point: CampaignTimelinePointDto, format: Formatters): string {
  return point.bucket === 'hour' ? format.dateTime(point.at) : format.date(point.at);
}

/** The drawing: people's opens and clicks over the buckets. */
function TimelineChart({
  timeline,
  labels,
}: {
  timeline: CampaignTimelinePointDto[];
  labels: string[];
}) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const theme = useTheme();
  const format = useFormatters();
  const count = (value: number | null) => (value === null ? '' : format.number(value));
  return (
    // The drawing is for the eye; the table (the toggle) carries the same figures for
    // screen readers, so the chart must not take the keyboard focus.
    <Box aria-hidden sx={{ overflow: 'hidden', mt: 1 }}>
      <LineChart
        height={CHART_HEIGHT}
        xAxis={[{ scaleType: 'point', data: labels }]}
        yAxis={[{ tickMinStep: 1, valueFormatter: count }]}
        series={[
          {
            data: timeline.map((point) => point.opens),
            label: t('timeline.opens'),
            valueFormatter: count,
            color: theme.palette.primary.main,
          },
          {
            data: timeline.map((point) => point.clicks),
            label: t('timeline.clicks'),
            valueFormatter: count,
            color: theme.palette.secondary.main,
          },
        ]}
        disableKeyboardNavigation
      />
    </Box>
  );
}

/**
 * People's opens and clicks per hour, then per day, as a chart or, for
 * screen readers and anyone who prefers it, as a table (a toggle).
 */
export function ReportTimeline({ timeline }: { timeline: CampaignTimelinePointDto[] }) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const format = useFormatters();
  const [asTable, setAsTable] = useState(false);
  const labels = timeline.map((point) => bucketLabel(point, format));
  return (
    <ReportSection
      title={t('timeline.title')}
      hint={t('timeline.hint')}
      actions={
        <Button
          size="small"
          variant="outlined"
          aria-pressed={asTable}
          onClick={() => setAsTable((shown) => !shown)}
          sx={{ mt: 1 }}
        >
          {asTable ? t('timeline.showChart') : t('timeline.showTable')}
        </Button>
      }
    >
      {asTable ? (
        <FigureTable
          label={t('timeline.title')}
          headers={[t('timeline.when'), t('timeline.opens'), t('timeline.clicks')]}
          rows={timeline.map((point, index) => ({
            key: point.at,
            cells: [labels[index] ?? '', format.number(point.opens), format.number(point.clicks)],
          }))}
        />
      ) : (
        <TimelineChart timeline={timeline} labels={labels} />
      )}
    </ReportSection>
  );
}
