import { Types, trusted } from 'mongoose';
import type { ImportCounts, ImportEncoding, ImportStatus } from '@agency/contracts';
import { ListImportModel, type ListImport } from './list-import.model';
import { ListMemberModel } from './list-member.model';
import { MailingListModel } from './mailing-list.model';
import { refreshPeopleOfImport } from './people/person-import-refresh';

/**
 * An import's record and its life cycle, in one place for the API (upload,
 * start, cancel, read) and the worker (run, checkpoint, end):
 * uploaded -> queued -> running -> done | cancelled | failed, and uploaded ->
 * cancelled. Each change is conditional on the state it leaves, so a second
 * click, a retried job or a cancel that races the job changes nothing twice.
 */
export type StoredImport = ListImport & { _id: Types.ObjectId };

/** What the upload learnt of a file: recorded with the file, before any list is chosen. */
export interface UploadedImport {
  fileId: Types.ObjectId;
  fileName: string;
  size: number;
  encoding: ImportEncoding;
  delimiter: string;
  rowCount: number;
  columns: string[];
  preview: { cells: string[] }[];
  hasHeader: boolean;
  byId: Types.ObjectId | string;
  byName: string;
}

export async function findStoredImport(id: string): Promise<StoredImport | null> {
  return ListImportModel.findById(id).lean<StoredImport>();
}

/** A page of imports, latest first, without their previews; and how many there are. */
export async function pageOfImports(
  skip: number,
  limit: number,
): Promise<{ items: StoredImport[]; total: number }> {
  const [items, total] = await Promise.all([
    ListImportModel.find({}, { preview: 0 })
      .sort({ createdAt: -1, _id: -1 })
      .skip(skip)
      .limit(limit)
      .lean<StoredImport[]>(),
    ListImportModel.estimatedDocumentCount(),
  ]);
  return { items, total };
}

const IMPORTING: ImportStatus[] = ['queued', 'running'];

/** Whether a file is being imported into the list now (queued or running). */
export async function isImportRunningInto(listId: string): Promise<boolean> {
  const importing = await ListImportModel.exists({
    list: new Types.ObjectId(listId),
    status: trusted({ $in: IMPORTING }),
  });
  return Boolean(importing);
}

/** A file read and summarised, recorded as uploaded and read back as stored. */
export async function recordUploadedImport(fields: UploadedImport): Promise<StoredImport> {
  const created = await ListImportModel.create({ ...fields, status: 'uploaded' });
  // Read back as stored: what every other call answers from.
  const stored = await findStoredImport(String(created._id));
  if (!stored) throw new Error('the import just written is gone');
  return stored;
}

/** uploaded -> queued into a list, or null when it was started already. */
export async function markImportQueued(
  id: string,
  into: {
    list: Types.ObjectId;
    listName: string;
    mapping: Record<string, unknown>;
    hasHeader: boolean;
  },
): Promise<StoredImport | null> {
  return ListImportModel.findOneAndUpdate(
    { _id: id, status: 'uploaded' },
    { $set: { status: 'queued', ...into } },
    { returnDocument: 'after' },
  ).lean<StoredImport>();
}

/** queued -> uploaded: its job could not be queued, so it may be started again. */
export async function markImportUnqueued(id: string): Promise<void> {
  await ListImportModel.updateOne({ _id: id, status: 'queued' }, { $set: { status: 'uploaded' } });
}

/** uploaded -> cancelled, or null when it was started meanwhile. */
export async function markUploadCancelled(id: string): Promise<StoredImport | null> {
  return ListImportModel.findOneAndUpdate(
    { _id: id, status: 'uploaded' },
    { $set: { status: 'cancelled', finishedAt: new Date() } },
    { returnDocument: 'after' },
  ).lean<StoredImport>();
}

/** queued (or running again, after a restart) -> running; the first start is kept. */
export async function markImportRunning(stored: StoredImport): Promise<void> {
  await ListImportModel.updateOne(
    { _id: stored._id },
    { $set: { status: 'running', ...(stored.startedAt ? {} : { startedAt: new Date() }) } },
  );
}

/** The counts of the rows up to `row`, saved after each chunk: where a restart resumes. */
export async function saveImportCheckpoint(
  importId: Types.ObjectId,
  checkpoint: { counts: ImportCounts; row: number; reportLines: number },
): Promise<void> {
  await ListImportModel.updateOne(
    { _id: importId },
    {
      $set: {
        counts: checkpoint.counts,
        checkpointRow: checkpoint.row,
        reportLines: checkpoint.reportLines,
      },
    },
  );
}

/**
 * The import's end, with its last counts; the members it created are added
 * to the list's count.
 */
export async function recordImportEnd(
  stored: StoredImport,
  end: {
    status: 'done' | 'cancelled' | 'failed';
    counts: ImportCounts;
    row: number;
    reportLines: number;
    error?: string;
  },
): Promise<void> {
  await ListImportModel.updateOne(
    { _id: stored._id },
    {
      $set: {
        status: end.status,
        counts: end.counts,
        checkpointRow: end.row,
        reportLines: end.reportLines,
        finishedAt: new Date(),
        ...(end.error ? { error: end.error } : {}),
      },
    },
  );
  if (end.counts.created > 0) {
    await MailingListModel.updateOne(
      { _id: stored.list },
      { $inc: { memberCount: end.counts.created } },
    );
  }
}

/** Ends an import whose list is gone before it began (nothing was counted). */
export async function recordImportOfDeletedList(importId: Types.ObjectId): Promise<void> {
  await ListImportModel.updateOne(
    { _id: importId },
    { $set: { status: 'failed', error: 'The list was deleted', finishedAt: new Date() } },
  );
}

/**
 * What a failed import leaves: its state, and the list's count as the
 * members really are (the rows written before the error stay).
 */
export async function recordImportFailure(importId: string): Promise<void> {
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
    await refreshPeopleOfImport(stored.list, stored.createdAt);
  }
}
