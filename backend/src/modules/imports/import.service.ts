import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import {
  QUEUE_NAMES,
  listImportJobId,
  suggestMapping,
  type ImportCounts,
  type ImportDto,
  type ImportEncoding,
  type ImportMapping,
  type ImportStartInput,
  type ImportStatus,
  type ListImportJob,
  type Page,
} from '@agency/contracts';
import {
  findListForImport,
  findStoredImport,
  importCancelKey,
  importFiles,
  importReportLines,
  markImportQueued,
  markImportUnqueued,
  markUploadCancelled,
  pageOfImports,
  previewRows,
  withTimeout,
  type Redis,
  type StoredImport,
  isoOrNull,
  pageOf,
} from '@agency/platform';
import type { Queue } from 'bullmq';
import { HttpError } from '../../errors';

const ZERO: ImportCounts = {
  read: 0,
  created: 0,
  updated: 0,
  unchanged: 0,
  skipped: 0,
  invalid: 0,
};

function mappingOf(stored: StoredImport): ImportMapping | null {
  const mapping = stored.mapping;
  if (!mapping || typeof mapping.email !== 'number') return null;
  const result: ImportMapping = { email: mapping.email };
  for (const field of ['firstName', 'lastName', 'locale', 'tags'] as const) {
    const column = mapping[field];
    if (typeof column === 'number') result[field] = column;
  }
  return result;
}

export function toImportDto(stored: StoredImport): ImportDto {
  const counts = stored.counts as Partial<ImportCounts> | undefined;
  const preview = previewRows(stored);
  return {
    id: String(stored._id),
    fileName: stored.fileName,
    size: stored.size,
    encoding: stored.encoding as ImportEncoding,
    rowCount: stored.rowCount,
    columns: stored.columns,
    preview,
    suggestedMapping: suggestMapping(stored.columns, preview),
    status: stored.status as ImportStatus,
    list: stored.list ? { id: String(stored.list), name: stored.listName ?? '' } : null,
    mapping: mappingOf(stored),
    hasHeader: stored.hasHeader,
    counts: { ...ZERO, ...counts },
    reportLines: stored.reportLines,
    error: stored.error ?? null,
    by: stored.byId ? { id: String(stored.byId), username: stored.byName ?? '' } : null,
    createdAt: stored.createdAt.toISOString(),
    startedAt: isoOrNull(stored.startedAt),
    finishedAt: isoOrNull(stored.finishedAt),
  };
}

async function findImport(id: string): Promise<StoredImport> {
  const stored = await findStoredImport(id);
  if (!stored) throw new HttpError('NOT_FOUND', 'No import with this id');
  return stored;
}

export async function getImport(id: string): Promise<ImportDto> {
  return toImportDto(await findImport(id));
}

/** The latest imports first; a short list, read by `createdAt`'s index. */
export async function listImports(page: number, pageSize: number): Promise<Page<ImportDto>> {
  const { items, total } = await pageOfImports((page - 1) * pageSize, pageSize);
  return pageOf(
    items.map((doc) => toImportDto({ ...doc, preview: [] })),
    total,
    { page, pageSize },
  );
}

const ENQUEUE_TIMEOUT_MS = 2000;

/**
 * uploaded -> queued, into a list, with the columns mapped: one
 * conditional update (two clicks cannot both win), then one job. If Redis
 * cannot take it the import goes back to `uploaded` and the user may retry.
 */
export async function startImport(
  queue: Queue<ListImportJob>,
  id: string,
  input: ImportStartInput,
): Promise<ImportDto> {
  const current = await findImport(id);
  const mapping = input.mapping as ImportMapping;
  const width = Math.max(current.columns.length, ...previewRows(current).map((r) => r.length));
  const outside = Object.entries(mapping).filter(
    ([, column]) => typeof column === 'number' && column >= width,
  );
  if (outside.length > 0) {
    throw new HttpError(
      'VALIDATION_FAILED',
      'Some fields are invalid',
      Object.fromEntries(
        outside.map(([field]) => [`mapping.${field}`, `The file has ${width} columns`]),
      ),
    );
  }
  const list = await findListForImport(input.listId);
  if (!list) {
    throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
      listId: 'This list does not exist',
    });
  }
  if (list.deleting) {
    throw new HttpError('VALIDATION_FAILED', 'Some fields are invalid', {
      listId: 'This list is being deleted',
    });
  }
  const queued = await markImportQueued(id, {
    list: list._id,
    listName: list.name,
    mapping,
    hasHeader: input.hasHeader ?? current.hasHeader,
  });
  if (!queued) throw new HttpError('CONFLICT', 'This import was started already');
  try {
    await withTimeout(
      queue.add(QUEUE_NAMES.listImport, { importId: id }, { jobId: listImportJobId(id) }),
      ENQUEUE_TIMEOUT_MS,
    );
  } catch {
    await markImportUnqueued(id);
    throw new HttpError(
      'UNAVAILABLE',
      'Imports are unavailable right now; please try again shortly',
    );
  }
  return toImportDto(queued);
}

/**
 * An upload not started is cancelled here and its file deleted. A queued or
 * running import is asked to stop through Redis: only its job writes it
 * from then on, and it stops at the next chunk of rows (what it wrote
 * stays, and is counted).
 */
export async function cancelImport(redis: Redis, prefix: string, id: string): Promise<ImportDto> {
  const current = await findImport(id);
  if (current.status === 'uploaded') {
    const cancelled = await markUploadCancelled(id);
    if (cancelled) {
      await importFiles()
        .delete(current.fileId)
        .catch(() => undefined);
      return toImportDto(cancelled);
    }
    return cancelImport(redis, prefix, id);
  }
  if (current.status !== 'queued' && current.status !== 'running') {
    throw new HttpError('CONFLICT', 'This import has ended');
  }
  try {
    await withTimeout(redis.set(importCancelKey(prefix, id), '1', 'EX', 7 * 24 * 3600), 2000);
  } catch {
    throw new HttpError(
      'UNAVAILABLE',
      'Cancelling is unavailable right now; please try again shortly',
    );
  }
  return toImportDto(current);
}

/** The error report: one line per skipped or invalid row, in file order. */
export async function importReport(
  id: string,
  onError: (error: Error) => void,
): Promise<{ fileName: string; stream: Readable }> {
  const stored = await findImport(id);
  const csv = stringify({
    header: true,
    columns: ['row', 'value', 'reason'],
    bom: true,
    record_delimiter: 'windows',
    escape_formulas: true,
  });
  const rows = Readable.from(importReportLines(stored._id));
  rows.on('error', onError);
  csv.on('error', onError);
  const base = stored.fileName
    .replace(/\.csv$/i, '')
    .replace(/[^\w.-]+/g, '-')
    .slice(0, 80);
  return { fileName: `${base || 'import'}-report.csv`, stream: rows.pipe(csv) };
}
