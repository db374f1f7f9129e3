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
  ListImportModel,
  ListMemberModel,
  MailingListModel,
  SubscriberModel,
  SuppressionModel,
  csvRows,
  importCancelKey,
  importFiles,
  insertUnlessPresent,
  isDuplicateKeyError,
  listMemberId,
  normalizeEmail,
  type ListImport,
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

type StoredImport = ListImport & { _id: Types.ObjectId };
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
  return async (job: Job<ListImportJob>): Promise<'done' | 'cancelled' | 'skipped'> => {
    try {
      return await run(job);
    } catch (error) {
      // The last attempt: the import ends as failed, not running for ever.
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await markFailed(job.data.importId);
      throw error;
    }
  };
}

/** What a failed import leaves: its state, and the list's count as the members really are. */
async function markFailed(importId: string): Promise<void> {
  const stored = await ListImportModel.findOneAndUpdate(
    { _id: importId, status: { $in: ['queued', 'running'] } },
    {
      $set: {
        status: 'failed',
        error: 'The import stopped on an error; the rows read before it are in the list',
        finishedAt: new Date(),
      },
    },
  ).lean();
  if (stored?.list) {
    const memberCount = await ListMemberModel.countDocuments({ list: stored.list });
    await MailingListModel.updateOne({ _id: stored.list }, { $set: { memberCount } });
  }
}

function readIntoList(deps: ListImportDeps) {
  return async (job: Job<ListImportJob>): Promise<'done' | 'cancelled' | 'skipped'> => {
    const { importId } = job.data;
    const stored = await ListImportModel.findById(importId).lean<StoredImport>();
    if (!stored || !['queued', 'running'].includes(stored.status)) return 'skipped';
    const mapping = stored.mapping as Mapping;
    const listId = String(stored.list);
    const list = await MailingListModel.findById(listId, { name: 1, deletion: 1 }).lean();
    const cancelKey = importCancelKey(deps.queuePrefix, importId);
    const finish = async (status: 'done' | 'cancelled' | 'failed', error?: string) => {
      await ListImportModel.updateOne(
        { _id: stored._id },
        {
          $set: {
            status,
            counts,
            checkpointRow: row,
            reportLines,
            finishedAt: new Date(),
            ...(error ? { error } : {}),
          },
        },
      );
      if (counts.created > 0 && list) {
        await MailingListModel.updateOne(
          { _id: list._id },
          { $inc: { memberCount: counts.created } },
        );
      }
      await importFiles()
        .delete(stored.fileId)
        .catch(() => undefined);
      await deps.connection.del(cancelKey).catch(() => undefined);
    };

    const counts: ImportCounts = {
      read: 0,
      created: 0,
      updated: 0,
      unchanged: 0,
      skipped: 0,
      invalid: 0,
      ...(stored.counts as Partial<ImportCounts>),
    };
    const checkpoint = stored.checkpointRow;
    let reportLines = stored.reportLines;
    let row = checkpoint;
    // A list being deleted takes no new members: they would outlive its deletion job.
    if (!list || list.deletion) {
      await finish('failed', 'The list was deleted');
      return 'done';
    }
    if (await deps.connection.get(cancelKey)) {
      await finish('cancelled');
      return 'cancelled';
    }
    await ListImportModel.updateOne(
      { _id: stored._id },
      { $set: { status: 'running', ...(stored.startedAt ? {} : { startedAt: new Date() }) } },
    );

    deps.logger.info(
      { importId, fromRow: checkpoint, attempt: job.attemptsMade + 1 },
      'list import started',
    );
    const excluded = await exclusions();
    // The addresses met so far, by digest: a short string of its own, where
    // the address itself may be a slice holding the whole chunk of text it
    // was parsed from (200,000 of those would keep the file in memory).
    const seen = new Set<string>();
    /** Notes an address; false when the file had it already. */
    const firstSight = (key: string) => {
      const digest = addressFingerprint(key);
      if (seen.has(digest)) return false;
      seen.add(digest);
      return true;
    };
    const consent = {
      basis: 'import',
      byId: stored.byId,
      byName: stored.byName,
      at: new Date(),
      file: stored.fileName,
      listName: list.name,
    };
    let pending: MemberRow[] = [];
    let given: number[] = [];
    let lines: ReportLine[] = [];
    let chunk = Math.floor(checkpoint / IMPORT_CHUNK_ROWS);

    /**
     * One chunk's writes: its members, its report lines, then the checkpoint
     * (the counts of the rows up to its last one, and that row).
     */
    const writeChunk = async (part: ChunkToWrite) => {
      await writeMembers(part.batch, part.given);
      if (part.lines.length > 0) {
        try {
          await ImportReportModel.create({
            _id: `${importId}:${part.chunk}`,
            importId: stored._id,
            chunk: part.chunk,
            lines: part.lines,
          });
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
        }
        reportLines += part.lines.length;
      }
      await ListImportModel.updateOne(
        { _id: stored._id },
        { $set: { counts: { ...counts, ...part.read }, checkpointRow: part.row, reportLines } },
      );
      await job.updateProgress(part.row);
    };

    // The next rows are read while a chunk is written (the store and the
    // parser then use a core each); one chunk at a time, in file order.
    let writing: Promise<void> = Promise.resolve();
    const flush = async () => {
      await writing;
      const part: ChunkToWrite = {
        batch: pending,
        given,
        lines,
        chunk,
        row,
        read: { read: counts.read, skipped: counts.skipped, invalid: counts.invalid },
      };
      pending = [];
      given = [];
      lines = [];
      chunk += 1;
      writing = writeChunk(part);
      // Awaited at the next flush; until then a failure must not count as unhandled.
      writing.catch(() => undefined);
    };

    /** New members in one insert; those already in the list compared one by one. */
    const writeMembers = async (batch: MemberRow[], givenOf: number[]) => {
      if (batch.length === 0) return;
      const refused = new Set(await insertUnlessPresent(members(), batch));
      counts.created += batch.length - refused.size;
      if (refused.size === 0) return;
      const known = new Map(
        (
          await members()
            .find({ _id: { $in: [...refused].map((index) => (batch[index] as MemberRow)._id) } })
            .toArray()
        ).map((existing) => [existing._id, existing as unknown as ListMember]),
      );
      for (const index of refused) {
        const member = batch[index] as MemberRow;
        const fields = givenOf[index] ?? 0;
        const existing = known.get(member._id);
        if (!existing) continue;
        if (existing.importId && String(existing.importId) === importId) {
          // Written by this import before a crash: counted as what it was.
          counts.created += 1;
          continue;
        }
        const changes: Record<string, unknown> = {};
        if (fields & GIVEN.firstName && existing.firstName !== member.firstName)
          changes.firstName = member.firstName;
        if (fields & GIVEN.lastName && existing.lastName !== member.lastName)
          changes.lastName = member.lastName;
        if (fields & GIVEN.locale && existing.locale !== member.locale)
          changes.locale = member.locale;
        if (fields & GIVEN.tags && !sameTags(existing.tags ?? [], member.tags))
          changes.tags = member.tags;
        if (Object.keys(changes).length === 0) {
          counts.unchanged += 1;
        } else {
          await ListMemberModel.updateOne({ _id: member._id }, { $set: changes });
          counts.updated += 1;
        }
      }
    };

    const file = importFiles().openDownloadStream(stored.fileId);
    const rows = csvRows(file, stored.encoding as ImportEncoding, stored.delimiter);
    let header = stored.hasHeader;
    // Rows are numbered from the file's start: those up to the checkpoint are passed over.
    row = 0;
    for await (const cells of rows) {
      if (header) {
        header = false;
        continue;
      }
      const number = row + 1;
      const raw = cell(cells, mapping.email);
      const key = raw ? normalizeEmail(raw) : undefined;
      // Before the checkpoint: written already, only its address is noted.
      if (number <= checkpoint) {
        if (key && isDeliverableAddress(key)) firstSight(key);
        row = number;
        continue;
      }
      row = number;
      counts.read += 1;
      if (!raw || !key) {
        counts.invalid += 1;
        lines.push({ row, value: cells.join(',').slice(0, 500), reason: 'missing-email' });
      } else if (!isDeliverableAddress(key)) {
        counts.invalid += 1;
        lines.push({ row, value: raw, reason: 'invalid-email' });
      } else if (!firstSight(key)) {
        counts.skipped += 1;
        lines.push({ row, value: raw, reason: 'duplicate-in-file' });
      } else {
        const reason = excluded.get(key);
        if (reason) {
          counts.skipped += 1;
          lines.push({ row, value: raw, reason });
        } else {
          const firstName = cell(cells, mapping.firstName);
          const lastName = cell(cells, mapping.lastName);
          const locale = localeOf(cell(cells, mapping.locale));
          const tags = tagsOf(cell(cells, mapping.tags));
          given.push(
            (firstName === undefined ? 0 : GIVEN.firstName) |
              (lastName === undefined ? 0 : GIVEN.lastName) |
              (locale === undefined ? 0 : GIVEN.locale) |
              (tags === undefined ? 0 : GIVEN.tags),
          );
          pending.push({
            _id: listMemberId(listId, key),
            key,
            email: raw,
            firstName: firstName ?? '',
            lastName: lastName ?? '',
            locale: locale ?? 'en',
            tags: tags ?? [],
            list: list._id,
            importId: stored._id,
            consent,
            createdAt: consent.at,
            updatedAt: consent.at,
          });
        }
      }
      if (row % IMPORT_CHUNK_ROWS === 0) {
        await flush();
        if (await deps.connection.get(cancelKey)) {
          rows.destroy();
          await writing;
          await finish('cancelled');
          deps.logger.info({ importId, row }, 'list import cancelled');
          return 'cancelled';
        }
      }
    }
    await flush();
    await writing;
    await finish('done');
    deps.logger.info({ importId, ...counts }, 'list import done');
    return 'done';
  };
}
