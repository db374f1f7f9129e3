import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { MediaStorageConfig } from '../../config';
import { contentTypeOfName, type MediaStorage } from './media-storage';

type S3Settings = Extract<MediaStorageConfig, { kind: 's3' }>;

/** Whether S3 answered that the object is not there. */
function isMissing(error: unknown): boolean {
  return (
    error instanceof NoSuchKey ||
    (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)
  );
}

/**
 * Images in an S3-compatible bucket (AWS SDK v3). Each object carries its
 * type and a year's caching, for a CDN serving MEDIA_S3_PUBLIC_URL.
 */
export function s3Storage(settings: S3Settings): MediaStorage {
  const client = new S3Client({
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.credentials ? { credentials: settings.credentials } : {}),
  });
  const Bucket = settings.bucket;
  const storage: MediaStorage = {
    async put(name, bytes, contentType) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: name,
          Body: bytes,
          ContentType: contentType,
          CacheControl: 'public, max-age=31536000, immutable',
        }),
      );
    },
    async get(name) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: name }));
        if (!object.Body) return null;
        return {
          body: object.Body as Readable,
          // From the name the library gave it, never from what the bucket says.
          contentType: contentTypeOfName(name),
          length: object.ContentLength ?? 0,
        };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async has(name) {
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: name }));
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async delete(name) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: name }));
    },
  };
  const publicUrl = settings.publicUrl;
  if (publicUrl) storage.publicUrl = (name) => `${publicUrl}/${name}`;
  return storage;
}
