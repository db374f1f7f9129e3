import { Schema, model, type InferSchemaType } from 'mongoose';
import { IMPORT_ENCODINGS, IMPORT_STATUSES } from '@agency/contracts';

const countsSchema = new Schema(
  {
    read: { type: Number, required: true, default: 0 },
    created: { type: Number, required: true, default: 0 },
    updated: { type: Number, required: true, default: 0 },
    unchanged: { type: Number, required: true, default: 0 },
    skipped: { type: Number, required: true, default: 0 },
    invalid: { type: Number, required: true, default: 0 },
  },
  { _id: false },
);

/**
 * One CSV file read into a list. The API writes it at upload and at start;
 * from then on only the import job writes it (its progress, once per chunk
 * of rows), so the two never race on the embedded store: a cancel is asked
 * through Redis. Every change of it is in list-import-records.ts.
 */
const listImportSchema = new Schema(
  {
    // The uploaded file, in GridFS: the worker that reads it may run on another host.
    fileId: { type: Schema.Types.ObjectId, required: true },
    fileName: { type: String, required: true },
    size: { type: Number, required: true },
    encoding: { type: String, required: true, enum: IMPORT_ENCODINGS },
    delimiter: { type: String, required: true, default: ',' },
    rowCount: { type: Number, required: true },
    columns: { type: [String], default: [] },
    // Rows as sub-documents: the embedded store refuses arrays of arrays.
    preview: { type: [{ _id: false, cells: { type: [String], default: [] } }], default: [] },
    status: { type: String, required: true, enum: IMPORT_STATUSES, default: 'uploaded' },
    list: { type: Schema.Types.ObjectId },
    listName: { type: String },
    mapping: {
      email: { type: Number },
      firstName: { type: Number },
      lastName: { type: Number },
      locale: { type: Number },
      tags: { type: Number },
    },
    hasHeader: { type: Boolean, required: true, default: true },
    counts: { type: countsSchema, required: true, default: () => ({}) },
    // The file rows (1 = the first data row) whose writes are all stored:
    // a run taken over after a crash starts after it, with these counts.
    checkpointRow: { type: Number, required: true, default: 0 },
    reportLines: { type: Number, required: true, default: 0 },
    error: { type: String },
    byId: { type: Schema.Types.ObjectId },
    byName: { type: String },
    startedAt: { type: Date },
    finishedAt: { type: Date },
  },
  { timestamps: true },
);

listImportSchema.index({ createdAt: -1 });

/** The preview's rows as the API and the worker read them. */
export type ListImport = Omit<InferSchemaType<typeof listImportSchema>, 'preview'> & {
  preview: { cells: string[] }[];
};

/** The preview's rows as cells, the way the API shows them. */
export function previewRows(stored: Pick<ListImport, 'preview'>): string[][] {
  return stored.preview.map((row) => [...row.cells]);
}
export const ListImportModel = model('ListImport', listImportSchema);

/**
 * The rows of one chunk that were skipped or invalid, written once with the
 * chunk (`_id` `<import>:<chunk>`): the error report reads them in order.
 */
const importReportSchema = new Schema({
  _id: { type: String, required: true },
  importId: { type: Schema.Types.ObjectId, required: true },
  chunk: { type: Number, required: true },
  lines: [
    {
      _id: false,
      row: { type: Number, required: true },
      value: { type: String, required: true },
      reason: { type: String, required: true },
    },
  ],
});

importReportSchema.index({ importId: 1 });

export type ImportReport = InferSchemaType<typeof importReportSchema>;
export const ImportReportModel = model('ImportReport', importReportSchema);

/** Where an import's cancel is asked: the job reads it between chunks. */
export function importCancelKey(prefix: string, importId: string): string {
  return `${prefix}:list-import:${importId}:cancel`;
}
