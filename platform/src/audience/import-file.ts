import { Transform, type Readable } from 'node:stream';
import { parse } from 'csv-parse';
import mongoose, { mongo } from 'mongoose';
import type { ImportEncoding } from '@agency/contracts';

/**
 * Uploaded import files, in GridFS: the worker that reads one may run on
 * another host than the API that took it.
 */
export function importFiles(): mongo.GridFSBucket {
  const db = mongoose.connection.db;
  if (!db) throw new Error('the database is not connected');
  return new mongo.GridFSBucket(db, { bucketName: 'imports' });
}

/** Bytes that Windows-1252 leaves undefined: a file holding them is in another encoding. */
const UNDEFINED_IN_1252 = new Set([0x81, 0x8d, 0x8f, 0x90, 0x9d]);

export type EncodingVerdict =
  { ok: true; encoding: ImportEncoding } | { ok: false; reason: string };

/**
 * Reads a file's bytes as they arrive and says what it is written in: UTF-8
 * (with or without a BOM) when every byte sequence is valid UTF-8, else
 * Windows-1252 when none of its undefined bytes appears. A NUL byte means a
 * binary file or UTF-16/32, refused like any other encoding.
 */
export class EncodingSniffer {
  private readonly utf8 = new TextDecoder('utf-8', { fatal: true });
  private validUtf8 = true;
  private fitsWindows1252 = true;
  private binary = false;
  private first = true;
  private utf16 = false;

  push(chunk: Buffer): void {
    if (this.first) {
      this.first = false;
      const [a, b] = [chunk[0], chunk[1]];
      if ((a === 0xff && b === 0xfe) || (a === 0xfe && b === 0xff)) this.utf16 = true;
    }
    if (chunk.includes(0)) this.binary = true;
    if (this.validUtf8) {
      try {
        this.utf8.decode(chunk, { stream: true });
      } catch {
        this.validUtf8 = false;
      }
    }
    if (this.fitsWindows1252 && !this.validUtf8) {
      for (const byte of chunk) {
        if (UNDEFINED_IN_1252.has(byte)) {
          this.fitsWindows1252 = false;
          break;
        }
      }
    }
  }

  verdict(): EncodingVerdict {
    if (this.utf16) {
      return {
        ok: false,
        reason: 'The file is in UTF-16; save it as CSV in UTF-8 or Windows-1252',
      };
    }
    if (this.binary) return { ok: false, reason: 'This is not a CSV file: it holds binary data' };
    if (this.validUtf8) {
      try {
        this.utf8.decode();
        return { ok: true, encoding: 'utf-8' };
      } catch {
        // A sequence cut at the very end: not UTF-8 after all.
      }
    }
    return this.fitsWindows1252
      ? { ok: true, encoding: 'windows-1252' }
      : {
          ok: false,
          reason: 'The file is neither UTF-8 nor Windows-1252; save it as CSV in UTF-8',
        };
  }
}

/** Bytes to text in the file's encoding, without a leading BOM. */
export function decoderStream(encoding: ImportEncoding): Transform {
  const decoder = new TextDecoder(encoding);
  let first = true;
  return new Transform({
    readableObjectMode: false,
    transform(chunk: Buffer, _encoding, done) {
      let text = decoder.decode(chunk, { stream: true });
      if (first && text.length > 0) {
        first = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      done(null, text);
    },
    flush(done) {
      done(null, decoder.decode());
    },
  });
}

/** The delimiter the first line uses most outside quotes: `,`, `;` (Excel in French) or tab. */
export function detectDelimiter(firstLine: string): string {
  const counts = new Map<string, number>([
    [',', 0],
    [';', 0],
    ['\t', 0],
  ]);
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && counts.has(char)) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best = ',';
  for (const [delimiter, count] of counts) {
    if (count > (counts.get(best) ?? 0)) best = delimiter;
  }
  return best;
}

/**
 * The file's rows, each an array of cells as text (nothing is evaluated: a
 * cell starting with `=` is kept as written), parsed as a stream by
 * csv-parse. Empty lines are skipped; rows may have fewer or more cells
 * than the header.
 */
export function csvRows(file: Readable, encoding: ImportEncoding, delimiter: string) {
  return file.pipe(decoderStream(encoding)).pipe(
    parse({
      delimiter,
      relax_column_count: true,
      skip_empty_lines: true,
      max_record_size: 64 * 1024,
    }),
  ) as AsyncIterable<string[]> & Readable;
}
