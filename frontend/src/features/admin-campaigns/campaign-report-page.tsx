import type { CampaignReportDto } from '@agency/contracts';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DownloadIcon from '@mui/icons-material/Download';
import InsightsIcon from '@mui/icons-material/Insights';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import { Link as RouterLink, useParams } from 'react-router-dom';
import { EmptyState } from '../../components/admin/empty-state';
import { LoadError } from '../../components/admin/load-error';
import { PageHeading } from '../../components/admin/page-heading';
import { RequirePermission } from '../../components/admin/require-permission';
import { useAdminCan } from '../../lib/admin-session';
import { ADMIN_PATHS } from '../../lib/admin-paths';
import { apiErrorMessage } from '../../lib/api-errors';
import { useFormatters } from '../../lib/use-formatters';
import { useNamespace } from '../../lib/translations';
import { useToast } from '../../lib/use-toast';
import { useCampaignReportQuery, useExportCampaignReportMutation } from './api/campaign-report-api';
import { CampaignTrackingSection } from './components/campaign-form-sections';
import { ClickMap } from './components/report/click-map';
import { PeopleResults } from './components/report/people-results';
import { DeliveryFigures, EngagementFigures } from './components/report/report-figures';
import { LanguageResults, LinkResults, SourceResults } from './components/report/report-tables';
import { ReportTimeline } from './components/report/report-timeline';
import { REPORT_NAMESPACE } from './report-namespace';

/** Nothing was counted yet: no open or click, by people or machines. */
function nothingCounted({ opens, clicks }: CampaignReportDto): boolean {
  return (
    opens.people.total + opens.machines.total + clicks.people.total + clicks.scanners.total === 0
  );
}

/** Why some figures are missing: tracking was off, or the key is gone. */
function TrackingNotes({ tracking }: { tracking: CampaignReportDto['tracking'] }) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const notes: string[] = [];
  if (!tracking.opens && !tracking.clicks) notes.push(t('tracking.off'));
  else if (!tracking.opens) notes.push(t('tracking.opensOff'));
  else if (!tracking.clicks) notes.push(t('tracking.clicksOff'));
  if (tracking.keyDestroyed) notes.push(t('tracking.keyDestroyed'));
  return notes.map((note) => (
    <Alert key={note} severity="info">
      {note}
    </Alert>
  ));
}

/** The Download CSV button of the whole report. */
function ReportDownload({ id }: { id: string }) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const toast = useToast();
  const [download, { isLoading }] = useExportCampaignReportMutation();
  const run = async () => {
    try {
      await download(id).unwrap();
    } catch (error: unknown) {
      toast({
        title: t('downloadFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };
  return (
    <Button
      variant="contained"
      startIcon={<DownloadIcon />}
      disabled={isLoading}
      onClick={() => void run()}
    >
      {isLoading ? t('downloading') : t('download')}
    </Button>
  );
}

/** Opens, clicks, the timeline and the links, or the empty state before anything counted. */
function Engagement({ report }: { report: CampaignReportDto }) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  if (nothingCounted(report)) {
    return (
      <EmptyState
        icon={<InsightsIcon />}
        title={t('engagement.empty')}
        description={t('engagement.emptyHint')}
      />
    );
  }
  return (
    <>
      <EngagementFigures report={report} />
      <ReportTimeline timeline={report.timeline} />
      {report.tracking.clicks ? <LinkResults links={report.links} /> : null}
      {report.tracking.clicks && report.links.length > 0 ? (
        <ClickMap id={report.id} links={report.links} />
      ) : null}
    </>
  );
}

/** Every part of a loaded report, in reading order. */
function ReportBody({ report }: { report: CampaignReportDto }) {
  const canSeePeople = useAdminCan('campaigns:individual-results');
  const tracked = report.tracking.opens || report.tracking.clicks;
  return (
    <Stack spacing={3}>
      <TrackingNotes tracking={report.tracking} />
      {/* The campaign's own choice, read-only: its mails went out with it. */}
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
        <CampaignTrackingSection tracking={report.tracking} />
      </Paper>
      <DeliveryFigures delivery={report.delivery} />
      {tracked ? <Engagement report={report} /> : null}
      {report.languages.length > 0 ? <LanguageResults languages={report.languages} /> : null}
      <SourceResults sources={report.sources} tracking={report.tracking} />
      {canSeePeople && report.tracking.mode === 'individual' ? (
        <PeopleResults id={report.id} />
      ) : null}
    </Stack>
  );
}

/** The page's heading: the campaign's name, when its send began, the way back and the CSV. */
function ReportHeading({ id, report }: { id: string; report: CampaignReportDto | undefined }) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const format = useFormatters();
  let subtitle: string | undefined;
  if (report) {
    subtitle = report.startedAt
      ? t('sentOn', { date: format.dateTime(report.startedAt) })
      : t('notStarted');
  }
  return (
    <PageHeading
      title={report ? t('title', { name: report.name }) : t('titleLoading')}
      subtitle={subtitle}
      actions={
        <>
          <Button
            component={RouterLink}
            to={ADMIN_PATHS.campaigns}
            startIcon={
              <ArrowBackIcon
                // Back points to where reading starts: the right on an Arabic page.
                sx={{ transform: (theme) => (theme.direction === 'rtl' ? 'scaleX(-1)' : 'none') }}
              />
            }
          >
            {t('back')}
          </Button>
          {report ? <ReportDownload id={id} /> : null}
        </>
      }
    />
  );
}

/** /admin/campaigns/:id/report: what a sent campaign did. */
export function CampaignReportPage() {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const { id = '' } = useParams<{ id: string }>();
  const { data, isError, refetch } = useCampaignReportQuery(id);
  let body;
  if (isError && !data) body = <LoadError title={t('loadError')} onRetry={() => void refetch()} />;
  else if (!data) body = <Skeleton variant="rounded" height={320} aria-busy />;
  else body = <ReportBody report={data} />;
  return (
    <RequirePermission permission="campaigns:read">
      <ReportHeading id={id} report={data} />
      {body}
    </RequirePermission>
  );
}
