import { PassThrough, pipeline, type Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { stringify as stringifyNow } from 'csv-stringify/sync';
import { CONTACT_EXPORT_COLUMNS, type ContactListQuery } from '@agency/contracts';
import { contactCursor, type ContactListIndex } from '../contact';

/** What the file starts with, before any row: the BOM and the header line. */
const HEAD = stringifyNow([[...CONTACT_EXPORT_COLUMNS]], { bom: true });

/**
 * The matching contacts as CSV: UTF-8 with a BOM (so spreadsheet programs
 * read accents and Arabic right), and a leading quote before any cell that
 * starts with = + - @ tab or CR, so a visitor's text is never run as a
 * spreadsheet formula. Rows stream from the cursor with backpressure.
 *
 * The BOM and the header go out at once: the download starts (and no proxy
 * times it out) while the store is still finding the first rows, which on a
 * store without usable indexes means reading the whole collection first.
 */
export function contactCsvStream(
  query: ContactListQuery,
  index: ContactListIndex,
  onError: (error: Error) => void,
): Readable {
  const out = new PassThrough();
  out.write(HEAD);
  const csv = stringify({
    header: false,
    columns: [...CONTACT_EXPORT_COLUMNS],
    escape_formulas: true,
  });
  return pipeline(contactCursor(query, index), csv, out, (error) => {
    if (error) onError(error);
  });
}

export function exportFileName(now = new Date()): string {
  return `contacts-${now.toISOString().slice(0, 10)}.csv`;
}
