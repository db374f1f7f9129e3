import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type {
  Page,
  SuppressionDto,
  SuppressionInput,
  SuppressionQuery,
  SuppressionReason,
  SuppressionSource,
} from '@agency/contracts';
import {
  SuppressionModel,
  findCampaignNames,
  normalizeEmail,
  suppressAddress,
  type Suppression,
  equalityFilter,
  findPage,
  pageOf,
  searchFilter,
  sortOf,
} from '@agency/platform';
import { HttpError } from '../../errors';

type StoredSuppression = Suppression & { _id: string };

function toSuppressionDto(
  entry: StoredSuppression,
  campaignNames: ReadonlyMap<string, string>,
): SuppressionDto {
  const campaignId = entry.campaign ? String(entry.campaign) : null;
  return {
    key: entry._id,
    email: entry.email,
    reason: entry.reason as SuppressionReason,
    source: entry.source as SuppressionSource,
    at: entry.at.toISOString(),
    campaign: campaignId ? { id: campaignId, name: campaignNames.get(campaignId) ?? null } : null,
    detail: entry.detail ?? null,
    by: entry.byId ? { id: String(entry.byId), username: entry.byName ?? '' } : null,
  };
}

/** The campaigns a page names, read once by `_id`. */
async function campaignNamesOf(entries: readonly StoredSuppression[]) {
  const ids = [...new Set(entries.flatMap(({ campaign }) => (campaign ? [String(campaign)] : [])))];
  if (ids.length === 0) return new Map<string, string>();
  return findCampaignNames(ids);
}

function filterOf(query: Pick<SuppressionQuery, 'search' | 'reason'>) {
  return { ...equalityFilter(query, ['reason']), ...searchFilter(query.search, ['_id', 'detail']) };
}

export async function listSuppressions(query: SuppressionQuery): Promise<Page<SuppressionDto>> {
  const { docs, total } = await findPage(
    SuppressionModel,
    filterOf(query),
    // The address is the `_id`: sorting by it needs no second key.
    { ...query, sort: query.sort.replace('email', '_id') },
  );
  const entries = docs as StoredSuppression[];
  const names = await campaignNamesOf(entries);
  return pageOf(
    entries.map((entry) => toSuppressionDto(entry, names)),
    total,
    query,
  );
}

export async function addSuppression(
  input: SuppressionInput,
  by: { id: string; username: string },
): Promise<SuppressionDto> {
  const added = await suppressAddress({
    email: input.email,
    reason: 'staff',
    source: 'staff',
    by,
    ...(input.note ? { detail: input.note } : {}),
  });
  if (!added) throw new HttpError('CONFLICT', 'This address is suppressed already');
  const entry = await SuppressionModel.findById(normalizeEmail(input.email)).lean();
  if (!entry) throw new HttpError('CONFLICT', 'The address was removed meanwhile');
  return toSuppressionDto(entry as StoredSuppression, new Map());
}

/** Campaigns may mail the address again (an unsubscribed subscriber still is not). */
export async function removeSuppression(email: string): Promise<SuppressionDto> {
  const entry = await SuppressionModel.findByIdAndDelete(normalizeEmail(email)).lean();
  if (!entry) throw new HttpError('NOT_FOUND', 'This address is not suppressed');
  return toSuppressionDto(entry as StoredSuppression, new Map());
}

export const SUPPRESSION_EXPORT_COLUMNS = [
  'email',
  'reason',
  'source',
  'at',
  'campaign',
  'detail',
] as const;

/**
 * The matching entries as CSV (UTF-8 with a BOM, formula-looking cells
 * quoted so a spreadsheet never runs them), streamed page by page.
 */
export function suppressionCsvStream(
  query: Pick<SuppressionQuery, 'search' | 'reason' | 'sort'>,
  onError: (error: Error) => void,
): Readable {
  const csv = stringify({
    header: true,
    columns: [...SUPPRESSION_EXPORT_COLUMNS],
    bom: true,
    escape_formulas: true,
  });
  const rows = SuppressionModel.find(filterOf(query))
    .sort(sortOf(query.sort.replace('email', '_id')))
    .lean<StoredSuppression[]>()
    .cursor();
  const source = Readable.from(
    (async function* () {
      for await (const entry of rows) {
        yield {
          email: entry.email,
          reason: entry.reason,
          source: entry.source,
          at: entry.at.toISOString(),
          campaign: entry.campaign ? String(entry.campaign) : '',
          detail: entry.detail ?? '',
        };
      }
    })(),
  );
  source.on('error', onError);
  csv.on('error', onError);
  return source.pipe(csv);
}
