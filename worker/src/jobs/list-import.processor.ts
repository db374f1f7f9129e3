import type { Job } from 'bullmq';
import type { Types } from 'mongoose';
import {
  LOCALES,
  MEMBER_TAGS_MAX,
  MEMBER_TAG_MAX_LENGTH,
  isDeliverableAddress,
  type ImportCounts,
  type ImportEncoding,
  type ImportRowReason,
  type ListImportJob,
  type Locale,
} from '@agency/contracts';
import {
  csvRows,
  erasedAddressDigest,
  erasedAddressDigests,
  erasedAddressToken,
  findImportExclusions,
  scrubErasedFromImportPreview,
  findListForImport,
  findStoredImport,
  givenMemberFields,
  importCancelKey,
  importFileBytes,
  importFiles,
  listMemberId,
  markImportRunning,
  refreshPeopleOfImport,
  normalizeEmail,
  recordImportEnd,
  recordImportFailure,
  recordImportOfDeletedList,
  recordImportReportChunk,
  saveImportCheckpoint,
  writeImportedMembers,
  type ImportedMember,
  type ImportReportLine,
  type ListImport,
  type StoredImport,
  type ErasureKey,
  type Logger,
  type Redis,
} from '@agency/platform';
import { createAddressFingerprints } from './address-fingerprints';

/** Rows per write: one insertMany of members, one report document, one progress update. */
export const IMPORT_CHUNK_ROWS = 1000;

type Mapping = NonNullable<ListImport['mapping']>;

export interface ListImportDeps {
  connection: Redis;
  queuePrefix: string;
  logger: Logger;
  /** Erased addresses are known by their keyed digests under this key. */
  erasureKey: ErasureKey;
}

/** A chunk of rows handed to the writes, with the counts the reading reached at its end. */
interface ChunkToWrite {
  batch: ImportedMember[];
  /** For each row of the batch, the fields the file gives (givenMemberFields). */
  given: number[];
  lines: ImportReportLine[];
  chunk: number;
  /** The chunk's last row. */
  row: number;
  read: Pick<ImportCounts, 'read' | 'skipped' | 'invalid'>;
}

function cell(row: readonly string[], column: number | null | undefined): string | undefined {
  if (typeof column !== 'number') return undefined;
  const value = row[column]?.trim();
  return value ? value.slice(0, 500) : undefined;
}

function localeOf(value: string | undefined): Locale | undefined {
  const code = value?.slice(0, 2).toLowerCase();
  return (LOCALES as readonly string[]).includes(code ?? '') ? (code as Locale) : undefined;
}

function tagsOf(value: string | undefined): string[] | undefined {
  if (!value) return undefined;
  const tags = value
    .split(/[,;|]/)
    .map((tag) => tag.trim().slice(0, MEMBER_TAG_MAX_LENGTH))
    .filter(Boolean);
  return [...new Set(tags)].slice(0, MEMBER_TAGS_MAX);
}

/**
 * Reads an uploaded CSV file into its list, as a stream: rows are checked
 * and de-duplicated by normalised address, suppressed and unsubscribed
 * addresses are skipped with their reason, and each chunk of rows is written
 * with one insertMany (a member's `_id` is `<list>:<address>`, so a member
 * already there is refused by the index and then compared: updated when the
 * file changes a field it gives, else left as it is). After each chunk the
 * import's counts and the last row written are saved: a run taken over
 * after a crash starts after that row, and the members it wrote before the
 * crash (marked with the import's id) count as created, not again.
 */
export function listImportProcessor(deps: ListImportDeps) {
  const run = readIntoList(deps);
  return async (job: Job<ListImportJob>): Promise<ImportOutcome> => {
    try {
      return await run(job);
    } catch (error) {
      // The last attempt: the import ends as failed, not running for ever.
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        await recordImportFailure(job.data.importId);
      }
      throw error;
    }
  };
}

type ImportOutcome = 'done' | 'cancelled' | 'skipped';
type ImportEnd = 'done' | 'cancelled' | 'failed';
type StoredList = { _id: Types.ObjectId; name: string };

/** One run of an import job: what it read from the store, and what it has counted so far. */
interface ImportRun {
  deps: ListImportDeps;
  job: Job<ListImportJob>;
  importId: string;
  stored: StoredImport;
  mapping: Mapping;
  list: StoredList;
  cancelKey: string;
  counts: ImportCounts;
  /** Report lines written so far (in earlier runs too). */
  reportLines: number;
  /** The last row read (numbered from the file's start, the header left out). */
  row: number;
  consent: ImportConsent;
}

function countsFrom(stored: StoredImport): ImportCounts {
  return {
    read: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    invalid: 0,
    ...(stored.counts as Partial<ImportCounts>),
  };
}

type ImportConsent = ReturnType<typeof consentOf>;

/** Why these members may be mailed: who imported which file into which list, and when. */
function consentOf(stored: StoredImport, list: StoredList) {
  return {
    basis: 'import',
    byId: stored.byId,
    byName: stored.byName,
    at: new Date(),
    file: stored.fileName,
    listName: list.name,
  };
}

/**
 * Ends the import: its state and counts, the list's member count, and the
 * uploaded file and cancel flag removed (both best effort: a file left over
 * is only space, and the flag expires).
 */
async function finishImport(run: ImportRun, status: ImportEnd, error?: string): Promise<void> {
  await recordImportEnd(run.stored, {
    status,
    counts: run.counts,
    row: run.row,
    reportLines: run.reportLines,
    ...(error ? { error } : {}),
  });
  await importFiles()
    .delete(run.stored.fileId)
    .catch(() => undefined);
  await run.deps.connection.del(run.cancelKey).catch(() => undefined);
  await forgetErasedInPreview(run);
  // Last: the people of what it wrote, once for the whole import (a failure is only logged).
  if (run.stored.list) await refreshPeopleOfImport(run.stored.list, run.stored.createdAt);
}

/** The import skipped the erased addresses; its record's preview of the file does not keep them either. */
async function forgetErasedInPreview(run: ImportRun): Promise<void> {
  const erased = erasedDigestLookup(run.deps.erasureKey, await erasedAddressDigests());
  await scrubErasedFromImportPreview(run.importId, (cell) => {
    const digest = erased(normalizeEmail(cell));
    return digest ? erasedAddressToken(digest) : undefined;
  });
}

/** Ends an import whose list is gone before it began (nothing was counted). */
async function failForMissingList(stored: StoredImport): Promise<void> {
  await recordImportOfDeletedList(stored._id);
  await importFiles()
    .delete(stored.fileId)
    .catch(() => undefined);
}

/**
 * The run of this job, or why there is none: the import ended already
 * (`skipped`), or its list is gone or being deleted (a list being deleted
 * takes no new members: they would outlive its deletion job).
 */
async function openRun(
  deps: ListImportDeps,
  job: Job<ListImportJob>,
): Promise<ImportRun | 'skipped' | 'list-gone'> {
  const { importId } = job.data;
  const stored = await findStoredImport(importId);
  if (!stored || !['queued', 'running'].includes(stored.status)) return 'skipped';
  const list = await findListForImport(stored.list);
  if (!list || list.deleting) {
    await failForMissingList(stored);
    await deps.connection.del(importCancelKey(deps.queuePrefix, importId)).catch(() => undefined);
    return 'list-gone';
  }
  return {
    deps,
    job,
    importId,
    stored,
    mapping: stored.mapping as Mapping,
    list: { _id: list._id, name: list.name },
    cancelKey: importCancelKey(deps.queuePrefix, importId),
    counts: countsFrom(stored),
    reportLines: stored.reportLines,
    row: stored.checkpointRow,
    consent: consentOf(stored, list),
  };
}

async function isCancelled(run: ImportRun): Promise<boolean> {
  return Boolean(await run.deps.connection.get(run.cancelKey));
}

/** One HMAC per row, checked against the erased addresses' digests read at the start. */
function erasedDigestLookup(key: ErasureKey, digests: ReadonlySet<string>) {
  return (address: string): string | undefined => {
    if (digests.size === 0) return undefined;
    const digest = erasedAddressDigest(key, address);
    return digests.has(digest) ? digest : undefined;
  };
}

/** What one row of the file comes to. */
type RowVerdict =
  | { kind: 'line'; line: ImportReportLine; counter: 'invalid' | 'skipped' }
  | { kind: 'member'; member: ImportedMember; given: number };

interface RowContext {
  run: ImportRun;
  excluded: Map<string, ImportRowReason>;
  /** The erased-address digest of a row's address, when it was erased; else undefined. */
  erasedDigest: (key: string) => string | undefined;
  firstSight: (key: string) => boolean;
}

function memberOf(
  run: ImportRun,
  cells: readonly string[],
  raw: string,
  key: string,
): { member: ImportedMember; given: number } {
  const { mapping, list, stored, consent } = run;
  const fields = {
    firstName: cell(cells, mapping.firstName),
    lastName: cell(cells, mapping.lastName),
    locale: localeOf(cell(cells, mapping.locale)),
    tags: tagsOf(cell(cells, mapping.tags)),
  };
  const { at } = consent;
  return {
    given: givenMemberFields(fields),
    member: {
      _id: listMemberId(String(list._id), key),
      key,
      email: raw,
      firstName: fields.firstName ?? '',
      lastName: fields.lastName ?? '',
      locale: fields.locale ?? 'en',
      tags: fields.tags ?? [],
      list: list._id,
      importId: stored._id,
      consent,
      createdAt: at,
      updatedAt: at,
    },
  };
}

/** Checks one row past the checkpoint: a member to write, or a report line and why. */
function judgeRow(context: RowContext, cells: readonly string[], row: number): RowVerdict {
  const raw = cell(cells, context.run.mapping.email);
  const key = raw ? normalizeEmail(raw) : undefined;
  if (!raw || !key) {
    const value = cells.join(',').slice(0, 500);
    return { kind: 'line', counter: 'invalid', line: { row, value, reason: 'missing-email' } };
  }
  if (!isDeliverableAddress(key)) {
    return { kind: 'line', counter: 'invalid', line: { row, value: raw, reason: 'invalid-email' } };
  }
  if (!context.firstSight(key)) {
    const line: ImportReportLine = { row, value: raw, reason: 'duplicate-in-file' };
    return { kind: 'line', counter: 'skipped', line };
  }
  const erased = context.erasedDigest(key);
  // The person asked for erasure: skipped as suppressed, and the report does not quote the address.
  if (erased) {
    const line: ImportReportLine = { row, value: erasedAddressToken(erased), reason: 'suppressed' };
    return { kind: 'line', counter: 'skipped', line };
  }
  const reason = context.excluded.get(key);
  if (reason) return { kind: 'line', counter: 'skipped', line: { row, value: raw, reason } };
  return { kind: 'member', ...memberOf(context.run, cells, raw, key) };
}

/** A row before the checkpoint was written already: only its address is noted. */
function passOverRow(context: RowContext, cells: readonly string[]): void {
  const raw = cell(cells, context.run.mapping.email);
  const key = raw ? normalizeEmail(raw) : undefined;
  if (key && isDeliverableAddress(key)) context.firstSight(key);
}

/** New members in one insert; those already in the list compared, and counted as what they came to. */
async function writeMembers(run: ImportRun, batch: ImportedMember[], givenOf: number[]) {
  const written = await writeImportedMembers(run.importId, batch, givenOf);
  run.counts.created += written.created;
  run.counts.updated += written.updated;
  run.counts.unchanged += written.unchanged;
}

async function writeReportLines(run: ImportRun, part: ChunkToWrite): Promise<void> {
  if (part.lines.length === 0) return;
  await recordImportReportChunk({
    importId: run.importId,
    storedId: run.stored._id,
    chunk: part.chunk,
    lines: part.lines,
  });
  run.reportLines += part.lines.length;
}

/**
 * One chunk's writes: its members, its report lines, then the checkpoint
 * (the counts of the rows up to its last one, and that row).
 */
async function writeChunk(run: ImportRun, part: ChunkToWrite): Promise<void> {
  await writeMembers(run, part.batch, part.given);
  await writeReportLines(run, part);
  await saveImportCheckpoint(run.stored._id, {
    counts: { ...run.counts, ...part.read },
    row: part.row,
    reportLines: run.reportLines,
  });
  await run.job.updateProgress(part.row);
}

/**
 * Gathers rows into chunks and writes each while the next is read (the store
 * and the parser then use a core each); one chunk at a time, in file order.
 */
function createChunkWriter(run: ImportRun) {
  let pending: ImportedMember[] = [];
  let given: number[] = [];
  let lines: ImportReportLine[] = [];
  let chunk = Math.floor(run.stored.checkpointRow / IMPORT_CHUNK_ROWS);
  let writing: Promise<void> = Promise.resolve();
  return {
    add(verdict: RowVerdict) {
      if (verdict.kind === 'line') {
        run.counts[verdict.counter] += 1;
        lines.push(verdict.line);
      } else {
        pending.push(verdict.member);
        given.push(verdict.given);
      }
    },
    /** Hands the rows gathered so far to the writes, once the chunk before is written. */
    async flush() {
      await writing;
      const { read, skipped, invalid } = run.counts;
      const part: ChunkToWrite = {
        batch: pending,
        given,
        lines,
        chunk,
        row: run.row,
        read: { read, skipped, invalid },
      };
      pending = [];
      given = [];
      lines = [];
      chunk += 1;
      writing = writeChunk(run, part);
      // Awaited at the next flush or settle; until then a failure must not count as unhandled.
      writing.catch(() => undefined);
    },
    /** Resolves once every chunk handed over is written (or rejects with its failure). */
    settle: () => writing,
  };
}

/**
 * Reads the file from its start, passing over the rows up to the checkpoint,
 * and writes the rest a chunk at a time, checking for a cancel between chunks.
 */
async function readRows(run: ImportRun): Promise<'done' | 'cancelled'> {
  const context: RowContext = {
    run,
    excluded: await findImportExclusions(),
    erasedDigest: erasedDigestLookup(run.deps.erasureKey, await erasedAddressDigests()),
    firstSight: createAddressFingerprints(run.stored.rowCount).firstSight,
  };
  const writer = createChunkWriter(run);
  const checkpoint = run.stored.checkpointRow;
  const file = importFileBytes(run.stored.fileId);
  const rows = csvRows(file, run.stored.encoding as ImportEncoding, run.stored.delimiter);
  let header = run.stored.hasHeader;
  let number = 0;
  run.row = 0;
  for await (const cells of rows) {
    if (header) {
      header = false;
      continue;
    }
    number += 1;
    run.row = number;
    if (number <= checkpoint) {
      passOverRow(context, cells);
      continue;
    }
    run.counts.read += 1;
    writer.add(judgeRow(context, cells, number));
    if (number % IMPORT_CHUNK_ROWS === 0) {
      await writer.flush();
      if (await isCancelled(run)) {
        rows.destroy();
        await writer.settle();
        return 'cancelled';
      }
    }
  }
  await writer.flush();
  await writer.settle();
  return 'done';
}

async function runImport(deps: ListImportDeps, job: Job<ListImportJob>): Promise<ImportOutcome> {
  const run = await openRun(deps, job);
  if (run === 'skipped') return 'skipped';
  if (run === 'list-gone') return 'done';
  if (await isCancelled(run)) {
    await finishImport(run, 'cancelled');
    return 'cancelled';
  }
  await markImportRunning(run.stored);
  const { importId } = run;
  deps.logger.info(
    { importId, fromRow: run.row, attempt: job.attemptsMade + 1 },
    'list import started',
  );
  const end = await readRows(run);
  await finishImport(run, end);
  if (end === 'cancelled') deps.logger.info({ importId, row: run.row }, 'list import cancelled');
  else deps.logger.info({ importId, ...run.counts }, 'list import done');
  return end;
}

function readIntoList(deps: ListImportDeps) {
  return (job: Job<ListImportJob>): Promise<ImportOutcome> => runImport(deps, job);
}
