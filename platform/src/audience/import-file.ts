import { Readable, Transform } from 'node:stream';
import { parse } from 'csv-parse';
import mongoose, { mongo, type Types } from 'mongoose';
import type { ImportEncoding } from '@agency/contracts';

const BUCKET_NAME = 'imports';

function connectedDb(): mongo.Db {
  const db = mongoose.connection.db;
  if (!db) throw new Error('the database is not connected');
  return db;
}

/**
 * Uploaded import files, in GridFS: the worker that reads one may run on
 * another host than the API that took it.
 */
export function importFiles(): mongo.GridFSBucket {
  return new mongo.GridFSBucket(connectedDb(), { bucketName: BUCKET_NAME });
}

/**
 * GridFS chunks (255 KB each) the store is asked for at a time when a whole
 * file is read: about 2 MB a reply.
 */
export const IMPORT_FILE_CHUNKS_PER_READ = 8;

/**
 * A stored import file's bytes from its start, for reading it through (the
 * API's check of an upload, the worker's import). The driver's GridFS
 * download stream asks for the chunks with no batch size, so the store
 * answers with as many as it likes: the first reply holds 101 chunks
 * (26 MB), and the embedded store's next replies are larger still (32 MB
 * for the rest of a 59 MB file). Each reply is held with its decoded copies
 * while the parser works through it: reading a 59 MB file that way took a
 * process from 64 to 151 MB. Asking for a few chunks at a time keeps the
 * reader at a few MB whatever the file's size (95 MB in the same test, and
 * as fast). The chunks are checked as the driver checks them: in order,
 * none missing or extra, each of its length.
 */
export function importFileBytes(fileId: Types.ObjectId, db: mongo.Db = connectedDb()): Readable {
  return Readable.from(chunksOfImportFile(db, fileId), { objectMode: false });
}

interface StoredFile {
  length: number;
  chunkSize: number;
}

async function* chunksOfImportFile(db: mongo.Db, fileId: Types.ObjectId): AsyncGenerator<Buffer> {
  const file = await db
    .collection<StoredFile>(`${BUCKET_NAME}.files`)
    .findOne({ _id: fileId }, { projection: { length: 1, chunkSize: 1 } });
  if (!file) throw new Error(`import file ${String(fileId)} is not stored`);
  const chunkCount = Math.ceil(file.length / file.chunkSize);
  const chunks = db
    .collection<{ n: number; data: mongo.Binary }>(`${BUCKET_NAME}.chunks`)
    .find(
      { files_id: fileId },
      { sort: { n: 1 }, batchSize: IMPORT_FILE_CHUNKS_PER_READ, projection: { n: 1, data: 1 } },
    );
  let next = 0;
  for await (const { n, data } of chunks) {
    const bytes = Buffer.from(data.buffer.buffer, data.buffer.byteOffset, data.position);
    const expectedLength = n === chunkCount - 1 ? file.length - n * file.chunkSize : file.chunkSize;
    if (n !== next || n >= chunkCount || bytes.length !== expectedLength) {
      throw new Error(
        `import file ${String(fileId)} is damaged: chunk ${n} of ${bytes.length} bytes where chunk ${next} of ${expectedLength} was due`,
      );
    }
    next += 1;
    yield bytes;
  }
  if (next !== chunkCount) {
    throw new Error(
      `import file ${String(fileId)} is damaged: ${next} of its ${chunkCount} chunks stored`,
    );
  }
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
