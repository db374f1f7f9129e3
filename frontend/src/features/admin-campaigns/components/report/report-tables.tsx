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

/** Per list (or per source of the audience): delivered, and the people who opened and who clicked. */
export function SourceResults({ sources }: { sources: CampaignReportDto['sources'] }) {
  const { t } = useNamespace(REPORT_NAMESPACE);
  const format = useFormatters();
  const nameOf = (row: SourceRow) => {
    if (row.kind !== 'list') return t(`sources.kinds.${row.kind}`);
    // A list's name is staff's own text, in any script: its direction is its own.
    return row.listName === null ? (
      t('sources.deletedList')
    ) : (
      <Typography component="span" variant="body2" dir="auto">
        {row.listName}
      </Typography>
    );
  };
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
            t('sources.clicked'),
          ]}
          rows={sources.map((row, index) => ({
            key: row.listId ?? `${row.kind}-${index}`,
            cells: [
              nameOf(row),
              format.number(row.delivered),
              format.number(row.opened),
              format.number(row.clicked),
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
