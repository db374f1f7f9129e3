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
  findCampaignNames,
  findSuppression,
  findSuppressionsPage,
  suppressAddress,
  suppressionsInOrder,
  unsuppressAddress,
  type StoredSuppression,
  pageOf,
} from '@agency/platform';
import { HttpError } from '../../errors';

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

export async function listSuppressions(query: SuppressionQuery): Promise<Page<SuppressionDto>> {
  const { entries, total } = await findSuppressionsPage(query);
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
  const entry = await findSuppression(input.email);
  if (!entry) throw new HttpError('CONFLICT', 'The address was removed meanwhile');
  return toSuppressionDto(entry, new Map());
}

/** Campaigns may mail the address again (an unsubscribed subscriber still is not). */
export async function removeSuppression(email: string): Promise<SuppressionDto> {
  const entry = await unsuppressAddress(email);
  if (!entry) throw new HttpError('NOT_FOUND', 'This address is not suppressed');
  return toSuppressionDto(entry, new Map());
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
  const rows = suppressionsInOrder(query);
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
