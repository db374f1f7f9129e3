import { createHash } from 'node:crypto';
import type { Job } from 'bullmq';
import { type Types, type mongo } from 'mongoose';
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
  ImportReportModel,
  ListMemberModel,
  MailingListModel,
  SubscriberModel,
  SuppressionModel,
  csvRows,
  findStoredImport,
  importCancelKey,
  importFiles,
  insertUnlessPresent,
  isDuplicateKeyError,
  listMemberId,
  markImportRunning,
  normalizeEmail,
  recordImportEnd,
  recordImportFailure,
  recordImportOfDeletedList,
  saveImportCheckpoint,
  type ListImport,
  type StoredImport,
  type ListMember,
  type Logger,
  type Redis,
} from '@agency/platform';

/**
 * A short stand-in for an address, for the addresses one file has met: it
 * never leaves the process, so a plain hash does (it is not a mail's
 * identity, which is keyed), and 80 bits of SHA-1 make a collision among a
 * file's rows practically impossible.
 */
function addressFingerprint(key: string): string {
  return createHash('sha1').update(key).digest('hex').slice(0, 20);
}

/** The members' collection as the driver sees it: their `_id`s are strings. */
const members = () =>
  ListMemberModel.collection as unknown as mongo.Collection<
    { _id: string } & Record<string, unknown>
  >;

/** Rows per write: one insertMany of members, one report document, one progress update. */
export const IMPORT_CHUNK_ROWS = 1000;

type Mapping = NonNullable<ListImport['mapping']>;

export interface ListImportDeps {
  connection: Redis;
  queuePrefix: string;
  logger: Logger;
}

interface ReportLine {
  row: number;
  value: string;
  reason: ImportRowReason;
}

/** A chunk of rows handed to the writes, with the counts the reading reached at its end. */
interface ChunkToWrite {
  batch: MemberRow[];
  /** For each row of the batch, the fields the file gives (GIVEN bits). */
  given: number[];
  lines: ReportLine[];
  chunk: number;
  /** The chunk's last row. */
  row: number;
  read: Pick<ImportCounts, 'read' | 'skipped' | 'invalid'>;
}

/**
 * Which fields a row gives, as bits: only those may change a member already
 * in the list. A number per row, not a set: the rows of two chunks are held
 * at once, and each object more is garbage the worker's memory pays for.
 */
const GIVEN = { firstName: 1, lastName: 2, locale: 4, tags: 8 } as const;

/** A member as it is inserted, built once from its row. */
type MemberRow = {
  _id: string;
  key: string;
  email: string;
  firstName: string;
  lastName: string;
  locale: Locale;
  tags: string[];
  list: Types.ObjectId;
  importId: Types.ObjectId;
  consent: object;
  createdAt: Date;
  updatedAt: Date;
};

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

/** Addresses an import never takes in, by the reason the report gives. */
async function exclusions(): Promise<Map<string, ImportRowReason>> {
  const reasons = new Map<string, ImportRowReason>();
  const left = SubscriberModel.collection
    .find<{ email: string }>({ status: 'unsubscribed' }, { projection: { email: 1 } })
    .batchSize(5000);
  for await (const { email } of left) reasons.set(normalizeEmail(email), 'unsubscribed');
  const suppressed = SuppressionModel.collection
    .find<{ _id: string }>({}, { projection: { _id: 1 } })
    .batchSize(5000);
  for await (const { _id } of suppressed) reasons.set(_id, 'suppressed');
  return reasons;
}

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((tag, index) => tag === b[index]);
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
  const list = await MailingListModel.findById(stored.list, { name: 1, deletion: 1 }).lean();
  if (!list || list.deletion) {
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

/** The addresses one file has met, by fingerprint (see addressFingerprint). */
function createSeenAddresses() {
  // A digest is a short string of its own, where the address itself may be a
  // slice holding the whole chunk of text it was parsed from (200,000 of those
  // would keep the file in memory).
  const seen = new Set<string>();
  /** Notes an address; false when the file had it already. */
  return (key: string): boolean => {
    const digest = addressFingerprint(key);
    if (seen.has(digest)) return false;
    seen.add(digest);
    return true;
  };
}

/** What one row of the file comes to. */
type RowVerdict =
  | { kind: 'line'; line: ReportLine; counter: 'invalid' | 'skipped' }
  | { kind: 'member'; member: MemberRow; given: number };

interface RowContext {
  run: ImportRun;
  excluded: Map<string, ImportRowReason>;
  firstSight: (key: string) => boolean;
}

function givenBits(fields: {
  firstName?: string;
  lastName?: string;
  locale?: Locale;
  tags?: string[];
}): number {
  return (
    (fields.firstName === undefined ? 0 : GIVEN.firstName) |
    (fields.lastName === undefined ? 0 : GIVEN.lastName) |
    (fields.locale === undefined ? 0 : GIVEN.locale) |
    (fields.tags === undefined ? 0 : GIVEN.tags)
  );
}

function memberOf(
  run: ImportRun,
  cells: readonly string[],
  raw: string,
  key: string,
): { member: MemberRow; given: number } {
  const { mapping, list, stored, consent } = run;
  const fields = {
    firstName: cell(cells, mapping.firstName),
    lastName: cell(cells, mapping.lastName),
    locale: localeOf(cell(cells, mapping.locale)),
    tags: tagsOf(cell(cells, mapping.tags)),
  };
  const { at } = consent;
  return {
    given: givenBits(fields),
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
    const line: ReportLine = { row, value: raw, reason: 'duplicate-in-file' };
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

/** The fields of `member` that differ from `existing`, among those its row gave. */
function changesFor(existing: ListMember, member: MemberRow, fields: number) {
  const changes: Record<string, unknown> = {};
  if (fields & GIVEN.firstName && existing.firstName !== member.firstName)
    changes.firstName = member.firstName;
  if (fields & GIVEN.lastName && existing.lastName !== member.lastName)
    changes.lastName = member.lastName;
  if (fields & GIVEN.locale && existing.locale !== member.locale) changes.locale = member.locale;
  if (fields & GIVEN.tags && !sameTags(existing.tags ?? [], member.tags))
    changes.tags = member.tags;
  return changes;
}

/** Compares the members the insert refused (already in the list) with their rows. */
async function mergeKnownMembers(
  run: ImportRun,
  batch: MemberRow[],
  givenOf: number[],
  refused: Set<number>,
): Promise<void> {
  const ids = [...refused].map((index) => (batch[index] as MemberRow)._id);
  const known = new Map(
    (
      await members()
        .find({ _id: { $in: ids } })
        .toArray()
    ).map((existing) => [existing._id, existing as unknown as ListMember] as const),
  );
  for (const index of refused) {
    const member = batch[index] as MemberRow;
    const existing = known.get(member._id);
    if (!existing) continue;
    if (existing.importId && String(existing.importId) === run.importId) {
      // Written by this import before a crash: counted as what it was.
      run.counts.created += 1;
      continue;
    }
    const changes = changesFor(existing, member, givenOf[index] ?? 0);
    if (Object.keys(changes).length === 0) {
      run.counts.unchanged += 1;
    } else {
      await ListMemberModel.updateOne({ _id: member._id }, { $set: changes });
      run.counts.updated += 1;
    }
  }
}

/** New members in one insert; those already in the list compared one by one. */
async function writeMembers(run: ImportRun, batch: MemberRow[], givenOf: number[]) {
  if (batch.length === 0) return;
  const refused = new Set(await insertUnlessPresent(members(), batch));
  run.counts.created += batch.length - refused.size;
  if (refused.size > 0) await mergeKnownMembers(run, batch, givenOf, refused);
}

async function writeReportLines(run: ImportRun, part: ChunkToWrite): Promise<void> {
  if (part.lines.length === 0) return;
  try {
    await ImportReportModel.create({
      _id: `${run.importId}:${part.chunk}`,
      importId: run.stored._id,
      chunk: part.chunk,
      lines: part.lines,
    });
  } catch (error) {
    // Written before a crash: the same chunk's lines, once.
    if (!isDuplicateKeyError(error)) throw error;
  }
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
  let pending: MemberRow[] = [];
  let given: number[] = [];
  let lines: ReportLine[] = [];
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
    excluded: await exclusions(),
    firstSight: createSeenAddresses(),
  };
  const writer = createChunkWriter(run);
  const checkpoint = run.stored.checkpointRow;
  const file = importFiles().openDownloadStream(run.stored.fileId);
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
