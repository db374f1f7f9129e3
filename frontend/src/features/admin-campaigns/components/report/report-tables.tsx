import type { CampaignReportDto } from '@agency/contracts';
import Typography from '@mui/material/Typography';
import { useFormatters } from '../../../../lib/use-formatters';
import { useNamespace } from '../../../../lib/translations';
import { REPORT_NAMESPACE } from '../../report-namespace';
import { FigureTable, ReportSection } from './report-section';

/** A link's part of people's clicks (0..100, one decimal); null when nobody clicked. */
export function clickShare(total: number, all: number): number | null {
  return all === 0 ? null : Math.round((total / all) * 1000) / 10;
}

/** Each tracked link: people's unique and total clicks, their share, and scanners' clicks. */
export function LinkResults({ links }: { links: CampaignReportDto['links'] }) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const format = useFormatters();
  const allClicks = links.reduce((sum, link) => sum + link.people.total, 0);
  const share = (total: number) => {
    const value = clickShare(total, allClicks);
    return value === null ? t('none') : t('percent', { value: format.number(value) });
  };
  return (
    <ReportSection title={t('links.title')}>
      {links.length === 0 ? (
        <Typography sx={{ mt: 2, color: 'text.secondary' }}>{t('links.empty')}</Typography>
      ) : (
        <FigureTable
          label={t('links.label')}
          headers={[
            t('links.url'),
            t('links.peopleUnique'),
            t('links.peopleTotal'),
            t('links.share'),
            t('links.scanners'),
          ]}
          rows={links.map((link) => ({
            key: String(link.index),
            cells: [
              // An address reads left to right on an Arabic page, and breaks anywhere.
              <Typography
                key="url"
                component="span"
                variant="body2"
                dir="ltr"
                // Wide enough to read on a phone (the table scrolls sideways), capped on a desktop.
                sx={{
                  wordBreak: 'break-all',
                  display: 'inline-block',
                  minWidth: 180,
                  maxWidth: 360,
                }}
              >
                {link.url}
              </Typography>,
              format.number(link.people.unique),
              format.number(link.people.total),
              share(link.people.total),
              format.number(link.scanners.total),
            ],
          }))}
        />
      )}
    </ReportSection>
  );
}

type SourceRow = CampaignReportDto['sources'][number];
type Tracked = Pick<CampaignReportDto['tracking'], 'opens' | 'clicks'>;
type Translate = ReturnType<typeof useNamespace>['t'];

/** A list's or segment's name is staff's own text, in any script: its direction is its own. */
function OwnName({ name, deleted }: { name: string | null; deleted: string }) {
  if (name === null) return deleted;
  return (
    <Typography component="span" variant="body2" dir="auto">
      {name}
    </Typography>
  );
}

function sourceName(row: SourceRow, t: Translate) {
  if (row.kind === 'list')
    return <OwnName name={row.listName} deleted={t('sources.deletedList')} />;
  if (row.kind === 'segment') {
    return <OwnName name={row.segmentName} deleted={t('sources.deletedSegment')} />;
  }
  return t(`sources.kinds.${row.kind}`);
}

/** A row's count and rate of one kind: "Not tracked" for both when the campaign did not track it. */
function useKindCells(t: Translate) {
  const format = useFormatters();
  return (tracked: boolean, count: number, rate: number | null): [string, string] => {
    if (!tracked) return [t('sources.notTracked'), t('sources.notTracked')];
    const shown = rate === null ? t('none') : t('percent', { value: format.number(rate) });
    return [format.number(count), shown];
  };
}

/** Per list or segment (or per source of the audience): delivered, and the people who opened and who clicked. */
export function SourceResults({
  sources,
  tracking,
}: {
  sources: CampaignReportDto['sources'];
  tracking: Tracked;
}) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const format = useFormatters();
  const kindCells = useKindCells(t);
  const counted = sources.some((row) => row.delivered > 0 || row.opened > 0 || row.clicked > 0);
  return (
    <ReportSection title={t('sources.title')} hint={t('sources.hint')}>
      {counted ? (
        <FigureTable
          label={t('sources.label')}
          headers={[
            t('sources.source'),
            t('sources.delivered'),
            t('sources.opened'),
            t('sources.openRate'),
            t('sources.clicked'),
            t('sources.clickRate'),
          ]}
          rows={sources.map((row, index) => ({
            key: row.listId ?? row.segmentId ?? `${row.kind}-${index}`,
            cells: [
              sourceName(row, t),
              format.number(row.delivered),
              ...kindCells(tracking.opens, row.opened, row.rates.open),
              ...kindCells(tracking.clicks, row.clicked, row.rates.click),
            ],
          }))}
        />
      ) : (
        <Typography sx={{ mt: 2, color: 'text.secondary' }}>{t('sources.empty')}</Typography>
      )}
    </ReportSection>
  );
}

/** Per language: delivered, and the people who opened and who clicked. */
export function LanguageResults({ languages }: { languages: CampaignReportDto['languages'] }) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const format = useFormatters();
  return (
    <ReportSection title={t('languages.title')}>
      <FigureTable
        label={t('languages.label')}
        headers={[
          t('languages.language'),
          t('languages.delivered'),
          t('languages.opened'),
          t('languages.clicked'),
        ]}
        rows={languages.map((row) => ({
          key: row.locale,
          cells: [
            t(`languages.names.${row.locale}`),
            format.number(row.delivered),
            format.number(row.opened),
            format.number(row.clicked),
          ],
        }))}
      />
    </ReportSection>
  );
}
