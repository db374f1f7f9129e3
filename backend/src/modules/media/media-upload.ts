import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import busboy from 'busboy';
import { MEDIA_MAX_BYTES, MEDIA_UPLOAD_FIELD, message } from '@agency/contracts';
import { HttpError } from '../../errors';
import { MediaRefusal } from './media-refusal';

/**
 * The file part of an upload request, kept in a file of its own until the
 * image process has read it: the API never holds uploads in its memory.
 */
export interface UploadedFile {
  /** Where it is kept; whoever read the upload removes it (`discardUpload`). */
  path: string;
  size: number;
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
 * Removes an upload's kept file; nothing to do when there is none. Off the
 * event loop: unlinking 10 MB frees its pages, half a millisecond or more.
 */
export async function discardUpload(file: Pick<UploadedFile, 'path'> | null): Promise<void> {
  if (file) await rm(file.path, { force: true });
}

/**
 * Reads a multipart upload as it streams: one file in MEDIA_UPLOAD_FIELD,
 * written to a file of its own in `uploadDir` as it arrives, and a few short fields. Past
 * MEDIA_MAX_BYTES the reading stops at once with a 413 (what the client
 * still sends is read and dropped, so the answer can go back on the
 * connection); a refused upload leaves no file behind.
 */
export function readUpload(request: IncomingMessage, uploadDir: string): Promise<UploadRequest> {
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
    /** The file being written, until it is whole on disk. */
    let written: Promise<void> = Promise.resolve();
    let failed = false;
    const fail = (error: Error) => {
      if (failed) return;
      failed = true;
      request.unpipe(parser);
      request.resume();
      // The partial file goes once closed, before the refusal is answered.
      // A file that cannot be removed is only disk space: the refusal still goes.
      void written
        .catch(() => undefined)
        .then(() => discardUpload(file))
        .catch(() => undefined)
        .then(() => reject(error));
    };
    parser.on('field', (name, value) => {
      if (!(name in fields)) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== MEDIA_UPLOAD_FIELD || file) {
        stream.resume();
        return;
      }
      const kept: UploadedFile = {
        path: join(uploadDir, `agency-upload-${randomUUID()}`),
        size: 0,
        declaredType: info.mimeType,
        fileName: info.filename ?? '',
      };
      file = kept;
      const out = createWriteStream(kept.path, { flags: 'wx', mode: 0o600 });
      written = new Promise((done, broke) => {
        out.on('finish', done);
        out.on('error', broke);
      });
      written.catch((error: unknown) =>
        fail(error instanceof Error ? error : new Error(String(error))),
      );
      stream.on('data', (chunk: Buffer) => (kept.size += chunk.length));
      stream.on('limit', () => {
        stream.unpipe(out);
        out.end();
        fail(tooLarge());
      });
      stream.pipe(out);
    });
    // A malformed body is the client's mistake, not a failure of ours.
    parser.on('error', () =>
      fail(new MediaRefusal('VALIDATION_FAILED', message('mediaFileRequired'))),
    );
    parser.on('close', () => {
      if (failed) return;
      written.then(
        async () => {
          if (failed) return;
          if (file && file.size === 0) {
            await discardUpload(file).catch(() => undefined);
            file = null;
          }
          resolve({ file, fields });
        },
        () => undefined,
      );
    });
    // The client went away: a 400 for the log, since no one reads the answer.
    request.on('aborted', () =>
      fail(new HttpError('BAD_REQUEST', 'The upload was interrupted before its end')),
    );
    request.pipe(parser);
  });
}
