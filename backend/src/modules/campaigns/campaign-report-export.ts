import { PassThrough, Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import { stringify as stringifyNow } from 'csv-stringify/sync';
import {
  CAMPAIGN_PEOPLE_EXPORT_COLUMNS,
  CAMPAIGN_REPORT_EXPORT_COLUMNS,
  type CampaignPersonResultDto,
  type CampaignReportDto,
  type CampaignSourceResultDto,
  type UniqueAndTotal,
} from '@agency/contracts';

/*
 * The report's exports are CSV as the contacts export writes it: UTF-8 with
 * a BOM (spreadsheet programs read accents and Arabic right) and a leading
 * quote before any cell that starts with = + - @ tab or CR, so a link's
 * address or a recipient's text is never run as a formula.
 */
const CSV_OPTIONS = { bom: true, escape_formulas: true } as const;

type ReportRow = [section: string, item: string, unique: number | '', total: number | ''];

const pair = (section: string, item: string, { unique, total }: UniqueAndTotal): ReportRow => [
  section,
  item,
  unique,
  total,
];

/**
 * A source as the export names it: a list or segment by its name and id (two
 * may share a name; a deleted one has only its id), the others by their kind.
 */
const sourceItem = (source: CampaignSourceResultDto): string => {
  if (source.kind === 'list')
    return `${source.listName ?? 'deleted list'} (${source.listId ?? ''})`;
  if (source.kind === 'segment') {
    return `${source.segmentName ?? 'deleted segment'} (${source.segmentId ?? ''})`;
  }
  return source.kind;
};

const sourceRows = (source: CampaignSourceResultDto): ReportRow[] => [
  ['source-delivered', sourceItem(source), '', source.delivered],
  ['source-opened', sourceItem(source), source.opened, ''],
  ['source-clicked', sourceItem(source), source.clicked, ''],
  ['source-open-percent', sourceItem(source), '', source.rates.open ?? ''],
  ['source-click-percent', sourceItem(source), '', source.rates.click ?? ''],
];

/** The report as rows of figures: delivery, opens, clicks, rates, links, languages, sources, timeline. */
function reportRows(report: CampaignReportDto): ReportRow[] {
  const { delivery, opens, clicks, rates } = report;
  return [
    ['delivery', 'sent', '', delivery.sent],
    ['delivery', 'failed', '', delivery.failed],
    ['delivery', 'delivered', '', delivery.delivered],
    ['delivery', 'bounced-hard', '', delivery.bounced.hard],
    ['delivery', 'bounced-soft', '', delivery.bounced.soft],
    ['delivery', 'complaints', '', delivery.complaints],
    ['delivery', 'unsubscribes', '', delivery.unsubscribes],
    pair('opens', 'people', opens.people),
    pair('opens', 'machines', opens.machines),
    ['opens', 'implied', opens.implied, ''],
    pair('clicks', 'people', clicks.people),
    pair('clicks', 'scanners', clicks.scanners),
    ['rates', 'open-percent', '', rates.open ?? ''],
    ['rates', 'click-percent', '', rates.click ?? ''],
    ...report.links.flatMap((link) => [
      pair('link-people', link.url, link.people),
      pair('link-scanners', link.url, link.scanners),
    ]),
    ...report.languages.flatMap(({ locale, delivered, opened, clicked }): ReportRow[] => [
      [`language-${locale}`, 'delivered', '', delivered],
      [`language-${locale}`, 'opened', opened, ''],
      [`language-${locale}`, 'clicked', clicked, ''],
    ]),
    ...report.sources.flatMap(sourceRows),
    ...report.timeline.flatMap(({ at, bucket, opens: o, clicks: c }): ReportRow[] => [
      [`timeline-${bucket}-opens`, at, '', o],
      [`timeline-${bucket}-clicks`, at, '', c],
    ]),
  ];
}

/** The report as one CSV text (a few hundred rows at most). */
export function campaignReportCsv(report: CampaignReportDto): string {
  return stringifyNow([[...CAMPAIGN_REPORT_EXPORT_COLUMNS], ...reportRows(report)], CSV_OPTIONS);
}

const personRow = (person: CampaignPersonResultDto): (string | number | boolean)[] => [
  person.email,
  person.locale,
  person.opened,
  person.openImplied,
  person.firstOpenAt ?? '',
  person.opens,
  person.clicks,
  person.clickedLinks.map((link) => link.url).join(' '),
];

/** The individual results as CSV, streamed row by row from the store's cursor. */
export function campaignPeopleCsvStream(
  people: AsyncIterable<CampaignPersonResultDto>,
  onError: (error: Error) => void,
): Readable {
  const out = new PassThrough();
  out.write(stringifyNow([[...CAMPAIGN_PEOPLE_EXPORT_COLUMNS]], { bom: true }));
  const rows = Readable.from(
    (async function* toRows() {
      for await (const person of people) yield personRow(person);
    })(),
  );
  return pipeline(rows, stringify({ escape_formulas: true }), out, (error) => {
    if (error) onError(error);
  });
}

export function reportFileName(name: string, kind: 'report' | 'people', now = new Date()): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return `campaign-${slug || 'results'}-${kind}-${now.toISOString().slice(0, 10)}.csv`;
}
