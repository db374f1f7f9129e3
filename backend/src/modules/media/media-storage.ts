import type { Readable } from 'node:stream';

/** A stored image file as it is served. */
export interface StoredFile {
  body: Readable;
  contentType: string;
  length: number;
}

/**
 * Where the images live: a folder, or an S3-compatible bucket. Names are
 * `<content hash>[-thumb].<ext>`, so a stored file never changes.
 */
export interface MediaStorage {
  put(name: string, bytes: Buffer, contentType: string): Promise<void>;
  /** The file, or null when there is none by that name. */
  get(name: string): Promise<StoredFile | null>;
  /** Whether a file by that name is there, without opening it (a revalidation's answer). */
  has(name: string): Promise<boolean>;
  /** Removes the file; one already gone is no error. */
  delete(name: string): Promise<void>;
  /** Where the file is public without the API (a CDN in front of a bucket), if anywhere. */
  publicUrl?(name: string): string;
}

/** The type a stored name's extension says; only names the library writes reach here. */
export function contentTypeOfName(name: string): string {
  if (name.endsWith('.png')) return 'image/png';
  if (name.endsWith('.gif')) return 'image/gif';
  return 'image/jpeg';
}
