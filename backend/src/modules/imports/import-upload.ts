import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Types } from 'mongoose';
import {
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  IMPORT_PREVIEW_ROWS,
  isDeliverableAddress,
  suggestMapping,
  type ImportEncoding,
} from '@agency/contracts';
import {
  EncodingSniffer,
  csvRows,
  detectDelimiter,
  importFileBytes,
  importFiles,
  recordUploadedImport,
  type StoredImport,
} from '@agency/platform';
import { HttpError } from '../../errors';

/** The 413's message for a file over IMPORT_MAX_BYTES, declared or found on the way. */
export const IMPORT_TOO_LARGE = `The file is larger than ${IMPORT_MAX_BYTES / (1024 * 1024)} MB`;

class TooLarge extends Error {}

/** Counts the bytes and feeds the encoding check while they go to GridFS; over the limit, stops. */
function meter(sniffer: EncodingSniffer, limit: number) {
  let size = 0;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limit) {
        done(new TooLarge());
        return;
      }
      sniffer.push(chunk);
      done(null, chunk);
    },
  });
  return { transform, size: () => size };
}

interface FileSummary {
  rowCount: number;
  columns: string[];
  preview: string[][];
  delimiter: string;
  hasHeader: boolean;
}

const firstLineOf = async (
  fileId: Types.ObjectId,
  size: number,
  encoding: ImportEncoding,
): Promise<string> => {
  // GridFS refuses an end past the file's length.
  const stream = importFiles().openDownloadStream(fileId, {
    start: 0,
    end: Math.min(64 * 1024, size),
  });
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  const text = new TextDecoder(encoding).decode(Buffer.concat(chunks));
  return text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
};

/** Reads the stored file through: it must parse as CSV, hold rows, and not too many. */
async function summarise(
  fileId: Types.ObjectId,
  size: number,
  encoding: ImportEncoding,
): Promise<FileSummary> {
  const delimiter = detectDelimiter(await firstLineOf(fileId, size, encoding));
  const rows = csvRows(importFileBytes(fileId), encoding, delimiter);
  const head: string[][] = [];
  let count = 0;
  try {
    for await (const row of rows) {
      count += 1;
      if (head.length <= IMPORT_PREVIEW_ROWS) head.push(row);
      if (count > IMPORT_MAX_ROWS + 1) {
        rows.destroy();
        throw new HttpError(
          'PAYLOAD_TOO_LARGE',
          `The file has more than ${IMPORT_MAX_ROWS.toLocaleString('en')} rows`,
        );
      }
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    const line = (error as { lines?: number }).lines;
    throw new HttpError('VALIDATION_FAILED', 'This is not a valid CSV file', {
      file: `${(error as Error).message}${line ? ` (line ${line})` : ''}`,
    });
  }
  const first = head[0];
  if (!first) {
    throw new HttpError('VALIDATION_FAILED', 'The file is empty', { file: 'The file has no rows' });
  }
  // A first row holding an address is data: the file has no header.
  const hasHeader = !first.some((cell) => isDeliverableAddress(cell.trim()));
  const columns = hasHeader
    ? first.map((cell) => cell.trim())
    : first.map((_, index) => `Column ${index + 1}`);
  const preview = (hasHeader ? head.slice(1) : head).slice(0, IMPORT_PREVIEW_ROWS);
  return { rowCount: hasHeader ? count - 1 : count, columns, preview, delimiter, hasHeader };
}

/**
 * Takes an uploaded CSV file: streamed into GridFS with its bytes counted
 * (over IMPORT_MAX_BYTES: 413) and its encoding checked on the way, then
 * read through once to check it parses, count its rows (over
 * IMPORT_MAX_ROWS: 413) and keep a preview. A file refused for any reason is
 * deleted: nothing is half-written.
 */
export async function uploadImportFile(
  body: Readable,
  fileName: string,
  by: { id: string; username: string },
): Promise<StoredImport> {
  const sniffer = new EncodingSniffer();
  const bytes = meter(sniffer, IMPORT_MAX_BYTES);
  const upload = importFiles().openUploadStream(fileName, { metadata: { by: by.id } });
  const fileId = upload.id as Types.ObjectId;
  const discard = () =>
    importFiles()
      .delete(fileId)
      .catch(() => undefined);
  // The request is piped, not put in the pipeline: a pipeline would destroy
  // it on a refusal, and with it the connection the 413 has to go back on.
  const cut = (error: Error) => bytes.transform.destroy(error);
  const closed = () => {
    if (!(body as Readable & { complete?: boolean }).complete) cut(new Error('upload aborted'));
  };
  body.once('error', cut).once('close', closed);
  body.pipe(bytes.transform);
  try {
    await pipeline(bytes.transform, upload);
  } catch (error) {
    // What the client still sends is read and dropped.
    body.unpipe(bytes.transform);
    body.resume();
    await discard();
    if (error instanceof TooLarge) {
      throw new HttpError('PAYLOAD_TOO_LARGE', IMPORT_TOO_LARGE);
    }
    throw error;
  } finally {
    body.off('error', cut).off('close', closed);
  }
  try {
    if (bytes.size() === 0) {
      throw new HttpError('VALIDATION_FAILED', 'The file is empty', { file: 'The file is empty' });
    }
    const verdict = sniffer.verdict();
    if (!verdict.ok)
      throw new HttpError('VALIDATION_FAILED', verdict.reason, { file: verdict.reason });
    const summary = await summarise(fileId, bytes.size(), verdict.encoding);
    const suggestedMapping = suggestMapping(summary.columns, summary.preview);
    if (suggestedMapping.email === undefined && summary.hasHeader) {
      const reason = 'No column holds e-mail addresses';
      throw new HttpError('VALIDATION_FAILED', reason, { file: reason });
    }
    const stored = await recordUploadedImport({
      fileId,
      fileName,
      size: bytes.size(),
      encoding: verdict.encoding,
      delimiter: summary.delimiter,
      rowCount: summary.rowCount,
      columns: summary.columns,
      preview: summary.preview.map((cells) => ({ cells })),
      hasHeader: summary.hasHeader,
      byId: by.id,
      byName: by.username,
    });
    return stored;
  } catch (error) {
    await discard();
    throw error;
  }
}
