import { mixed, number, object, type InferType } from 'yup';
import { message, recordId } from '../validation/fields';
import { isDeliverableAddress } from '../validation/email-address';

/**
 * The largest CSV file an import takes, and the most rows: a million rows
 * of addresses, names, language and tags come to about 60 MB.
 */
export const IMPORT_MAX_BYTES = 100 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 1_000_000;
/** Rows shown in the mapping step. */
export const IMPORT_PREVIEW_ROWS = 5;

/** The fields a column can be mapped to; only the e-mail is required. */
export const IMPORT_FIELDS = ['email', 'firstName', 'lastName', 'locale', 'tags'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** What a file can be written in: anything else is refused at upload. */
export const IMPORT_ENCODINGS = ['utf-8', 'windows-1252'] as const;
export type ImportEncoding = (typeof IMPORT_ENCODINGS)[number];

export const IMPORT_STATUSES = [
  'uploaded',
  'queued',
  'running',
  'done',
  'cancelled',
  'failed',
] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];

/** Which column (0-based) feeds each field; a field left out is not imported. */
export type ImportMapping = { email: number } & Partial<
  Record<Exclude<ImportField, 'email'>, number>
>;

const column = () =>
  number()
    .transform((_value: unknown, original: unknown) =>
      typeof original === 'number' ? original : original === null ? undefined : Number.NaN,
    )
    .typeError(message('mustBeWholeNumber'))
    .integer(message('mustBeWholeNumber'))
    .min(0, message('minValue', { min: 0 }))
    .max(999, message('maxValue', { max: 999 }));

/** POST /api/admin/imports/{id}/start: the list and the column of each field. */
export const importStartSchema = object({
  listId: recordId().required(message('required')),
  mapping: object({
    email: column().required(message('required')),
    firstName: column().optional(),
    lastName: column().optional(),
    locale: column().optional(),
    tags: column().optional(),
  })
    .required(message('required'))
    .default(undefined),
  /** Whether the first row names the columns (and is not imported). */
  hasHeader: mixed<boolean>()
    .transform((value: unknown) => value)
    .test('boolean', message('oneOf', { values: 'true, false' }), (value) =>
      value === undefined ? true : typeof value === 'boolean',
    )
    .default(true),
});
export type ImportStartInput = InferType<typeof importStartSchema>;

/** Why a row was not imported as it is. */
export const IMPORT_ROW_REASONS = [
  'invalid-email',
  'missing-email',
  'duplicate-in-file',
  'suppressed',
  'unsubscribed',
] as const;
export type ImportRowReason = (typeof IMPORT_ROW_REASONS)[number];

export interface ImportCounts {
  /** Data rows read so far (the header is not one). */
  read: number;
  /** New members of the list. */
  created: number;
  /** Members whose name, language or tags the file changed. */
  updated: number;
  /** Already in the list exactly as the file says: nothing to do. */
  unchanged: number;
  /** Duplicates in the file, and addresses that are suppressed or unsubscribed. */
  skipped: number;
  /** Rows without a usable address. */
  invalid: number;
}

export interface ImportDto {
  id: string;
  fileName: string;
  size: number;
  encoding: ImportEncoding;
  /** Data rows in the file (without the header row, when it has one). */
  rowCount: number;
  /** The first row's cells: the column names when the file has a header. */
  columns: string[];
  /** The first rows after the header, as text. */
  preview: string[][];
  /** What the column names suggest. */
  suggestedMapping: Partial<ImportMapping>;
  status: ImportStatus;
  list: { id: string; name: string } | null;
  mapping: ImportMapping | null;
  hasHeader: boolean;
  counts: ImportCounts;
  /** Rows in the error report (skipped and invalid, with the reason). */
  reportLines: number;
  /** Why it failed, when it did. */
  error: string | null;
  by: { id: string; username: string } | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

/** Counts reached 0 of what changes a list: the re-run of a file says so. */
export function importChangedNothing(counts: ImportCounts): boolean {
  return counts.created === 0 && counts.updated === 0;
}

/** Column names that say "e-mail" in the languages the agency works in. */
const FIELD_NAMES: Record<ImportField, RegExp> = {
  email:
    /^(e-?mail|email address|e-mail address|mail|courriel|adresse (e-?mail|électronique)|البريد الإلكتروني|البريد)$/i,
  firstName: /^(first[ _-]?name|given name|prénom|prenom|الاسم)$/i,
  lastName: /^(last[ _-]?name|surname|family name|nom|nom de famille|اللقب)$/i,
  locale: /^(lang|language|locale|langue|اللغة)$/i,
  tags: /^(tags?|labels?|étiquettes?)$/i,
};

/**
 * The mapping the first rows suggest: a column named like a field, else
 * (for the e-mail) the first column whose sample values are mostly addresses.
 */
export function suggestMapping(
  columns: readonly string[],
  sample: readonly (readonly string[])[],
): Partial<ImportMapping> {
  const mapping: Partial<ImportMapping> = {};
  for (const field of IMPORT_FIELDS) {
    const index = columns.findIndex((name) => FIELD_NAMES[field].test(name.trim()));
    if (index >= 0) mapping[field] = index;
  }
  if (mapping.email === undefined) {
    const width = Math.max(columns.length, ...sample.map((row) => row.length));
    for (let index = 0; index < width; index += 1) {
      const values = sample.map((row) => (row[index] ?? '').trim()).filter(Boolean);
      const addresses = values.filter(isDeliverableAddress).length;
      if (values.length > 0 && addresses * 2 >= values.length) {
        mapping.email = index;
        break;
      }
    }
  }
  return mapping;
}
