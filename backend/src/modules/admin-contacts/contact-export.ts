import { pipeline, type Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { CONTACT_EXPORT_COLUMNS, type ContactListQuery } from '@agency/contracts';
import { contactCursor } from '../contact';

/**
 * The matching contacts as CSV: UTF-8 with a BOM (so spreadsheet programs
 * read accents and Arabic right), and a leading quote before any cell that
 * starts with = + - @ tab or CR, so a visitor's text is never run as a
 * spreadsheet formula. Rows stream from the cursor with backpressure.
 */
export function contactCsvStream(
  query: ContactListQuery,
  onError: (error: Error) => void,
): Readable {
  const csv = stringify({
    header: true,
    columns: [...CONTACT_EXPORT_COLUMNS],
    bom: true,
    escape_formulas: true,
  });
  return pipeline(contactCursor(query), csv, (error) => {
    if (error) onError(error);
  });
}

export function exportFileName(now = new Date()): string {
  return `contacts-${now.toISOString().slice(0, 10)}.csv`;
}
