import type { Job } from 'bullmq';
import { type Types, type mongo } from 'mongoose';
import {
  LOCALES,
  MEMBER_TAGS_MAX,
  MEMBER_TAG_MAX_LENGTH,
  isEmailAddress,
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
  isDuplicateKeyError,
  listMemberId,
  normalizeEmail,
  type ListImport,
  type ListMember,
  type Logger,
  type Redis,
} from '@agency/platform';

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

/** A member as the file says it, before it is written. */
type GivenField = 'firstName' | 'lastName' | 'locale' | 'tags';

interface MemberRow {
  _id: string;
  key: string;
  email: string;
  firstName: string;
  lastName: string;
  locale: Locale;
  tags: string[];
  /** Which of those fields the file gives: only they may change an existing member. */
  given: Set<GivenField>;
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
    const list = await MailingListModel.findById(listId, { name: 1 }).lean();
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
    if (!list) {
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
    const seen = new Set<string>();
    const consent = {
      basis: 'import',
      byId: stored.byId,
      byName: stored.byName,
      at: new Date(),
      file: stored.fileName,
      listName: list.name,
    };
    let pending: MemberRow[] = [];
    let lines: ReportLine[] = [];
    let chunk = Math.floor(checkpoint / IMPORT_CHUNK_ROWS);

    const writeChunk = async () => {
      await writeMembers(pending);
      if (lines.length > 0) {
        try {
          await ImportReportModel.create({
            _id: `${importId}:${chunk}`,
            importId: stored._id,
            chunk,
            lines,
          });
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
        }
        reportLines += lines.length;
      }
      await ListImportModel.updateOne(
        { _id: stored._id },
        { $set: { counts, checkpointRow: row, reportLines } },
      );
      await job.updateProgress(row);
      pending = [];
      lines = [];
      chunk += 1;
    };

    /** New members in one insert; those already in the list compared one by one. */
    const writeMembers = async (batch: MemberRow[]) => {
      if (batch.length === 0) return;
      const documents = batch.map(({ given, ...member }) => {
        void given;
        return {
          ...member,
          list: list._id,
          importId: stored._id,
          consent,
          createdAt: consent.at,
          updatedAt: consent.at,
        };
      });
      const refused = new Set<number>();
      try {
        await members().insertMany(documents, { ordered: false });
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const writeErrors = (error as { writeErrors?: { index: number }[] }).writeErrors ?? [];
        for (const { index } of writeErrors) refused.add(index);
      }
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
        const existing = known.get(member._id);
        if (!existing) continue;
        if (existing.importId && String(existing.importId) === importId) {
          // Written by this import before a crash: counted as what it was.
          counts.created += 1;
          continue;
        }
        const changes: Record<string, unknown> = {};
        if (member.given.has('firstName') && existing.firstName !== member.firstName)
          changes.firstName = member.firstName;
        if (member.given.has('lastName') && existing.lastName !== member.lastName)
          changes.lastName = member.lastName;
        if (member.given.has('locale') && existing.locale !== member.locale)
          changes.locale = member.locale;
        if (member.given.has('tags') && !sameTags(existing.tags ?? [], member.tags))
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
        if (key && isEmailAddress(key)) seen.add(key);
        row = number;
        continue;
      }
      row = number;
      counts.read += 1;
      if (!raw || !key) {
        counts.invalid += 1;
        lines.push({ row, value: cells.join(',').slice(0, 500), reason: 'missing-email' });
      } else if (!isEmailAddress(key)) {
        counts.invalid += 1;
        lines.push({ row, value: raw, reason: 'invalid-email' });
      } else if (seen.has(key)) {
        counts.skipped += 1;
        lines.push({ row, value: raw, reason: 'duplicate-in-file' });
      } else {
        seen.add(key);
        const reason = excluded.get(key);
        if (reason) {
          counts.skipped += 1;
          lines.push({ row, value: raw, reason });
        } else {
          const given: MemberRow['given'] = new Set();
          const firstName = cell(cells, mapping.firstName);
          const lastName = cell(cells, mapping.lastName);
          const locale = localeOf(cell(cells, mapping.locale));
          const tags = tagsOf(cell(cells, mapping.tags));
          if (firstName !== undefined) given.add('firstName');
          if (lastName !== undefined) given.add('lastName');
          if (locale !== undefined) given.add('locale');
          if (tags !== undefined) given.add('tags');
          pending.push({
            _id: listMemberId(listId, key),
            key,
            email: raw,
            firstName: firstName ?? '',
            lastName: lastName ?? '',
            locale: locale ?? 'en',
            tags: tags ?? [],
            given,
          });
        }
      }
      if (row % IMPORT_CHUNK_ROWS === 0) {
        await writeChunk();
        if (await deps.connection.get(cancelKey)) {
          rows.destroy();
          await finish('cancelled');
          deps.logger.info({ importId, row }, 'list import cancelled');
          return 'cancelled';
        }
      }
    }
    await writeChunk();
    await finish('done');
    deps.logger.info({ importId, ...counts }, 'list import done');
    return 'done';
  };
}
