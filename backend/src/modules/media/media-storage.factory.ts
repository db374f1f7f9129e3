import type { MediaStorageConfig } from '../../config';
import { filesystemStorage } from './filesystem.storage';
import type { MediaStorage } from './media-storage';
import { s3Storage } from './s3.storage';

/** The store MEDIA_* chose: a bucket when MEDIA_S3_BUCKET is set, else MEDIA_DIR. */
export function createMediaStorage(config: MediaStorageConfig): MediaStorage {
  return config.kind === 's3' ? s3Storage(config) : filesystemStorage(config.dir);
}
