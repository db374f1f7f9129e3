import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { MEDIA_MAX_BYTES, MEDIA_UPLOAD_FIELD, message } from '@agency/contracts';
import { HttpError } from '../../errors';
import { MediaRefusal } from './media-refusal';

/** The file part of an upload request, read whole (it is at most MEDIA_MAX_BYTES). */
export interface UploadedFile {
  bytes: Buffer;
  declaredType: string;
  fileName: string;
}

export interface UploadRequest {
  file: UploadedFile | null;
  /** The other text fields, as sent (the route validates them). */
  fields: Record<string, string>;
}

/** Room for the multipart boundaries, headers and the name field around the file. */
const ENVELOPE_BYTES = 64 * 1024;

const tooLarge = () =>
  new MediaRefusal(
    'PAYLOAD_TOO_LARGE',
    message('mediaTooLarge', { max: MEDIA_MAX_BYTES / (1024 * 1024) }),
  );

/**
 * Whether the declared length alone is over the limit: refused before a
 * byte of the body is read.
 */
export function declaredTooLarge(length: number | undefined): MediaRefusal | null {
  return length !== undefined && length > MEDIA_MAX_BYTES + ENVELOPE_BYTES ? tooLarge() : null;
}

/**
 * Reads a multipart upload as it streams: one file in MEDIA_UPLOAD_FIELD
 * and a few short fields. Past MEDIA_MAX_BYTES the reading stops at once
 * with a 413 (what the client still sends is read and dropped, so the
 * answer can go back on the connection); never more than the limit is held.
 */
export function readUpload(request: IncomingMessage): Promise<UploadRequest> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: request.headers,
        limits: { fileSize: MEDIA_MAX_BYTES, files: 1, fields: 4, fieldSize: 4096, parts: 6 },
      });
    } catch {
      reject(new MediaRefusal('UNSUPPORTED_MEDIA_TYPE', message('mediaFileRequired')));
      return;
    }
    const fields: Record<string, string> = {};
    let file: UploadedFile | null = null;
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      request.unpipe(parser);
      request.resume();
      reject(error);
    };
    parser.on('field', (name, value) => {
      if (!(name in fields)) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== MEDIA_UPLOAD_FIELD) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => fail(tooLarge()));
      stream.on('end', () => {
        if (failed) return;
        file = {
          bytes: Buffer.concat(chunks),
          declaredType: info.mimeType,
          fileName: info.filename ?? '',
        };
      });
    });
    // A malformed body is the client's mistake, not a failure of ours.
    parser.on('error', () =>
      fail(new MediaRefusal('VALIDATION_FAILED', message('mediaFileRequired'))),
    );
    parser.on('close', () => {
      if (failed) return;
      resolve({ file: file && file.bytes.length > 0 ? file : null, fields });
    });
    // The client went away: a 400 for the log, since no one reads the answer.
    request.on('aborted', () =>
      fail(new HttpError('BAD_REQUEST', 'The upload was interrupted before its end')),
    );
    request.pipe(parser);
  });
}
