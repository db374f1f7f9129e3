import {
  API_ROUTES,
  MEDIA_NAME_MAX_LENGTH,
  type KeysetPage,
  type MediaDeliveredType,
  type MediaDto,
  type MediaListQuery,
  type MediaUseDto,
  MEDIA_DELETE_BLOCKING_STATUSES,
} from '@agency/contracts';
import {
  DomainError,
  countUpTo,
  duplicateKeyOf,
  findKeysetPage,
  findMediaUses,
  keysetPageOf,
  prefixFilter,
  searchKey,
  type SortField,
} from '@agency/platform';
import type { MediaExtension } from './media-image';
import type { ImageProcessor, ProcessedUpload } from './media-image.pool';
import { MediaModel, type StoredMedia } from './media.model';
import type { MediaStorage } from './media-storage';
import type { UploadedFile } from './media-upload';

const SORT_FIELDS: Readonly<Record<string, SortField>> = {
  createdAt: { field: 'createdAt', kind: 'date' },
  name: { field: 'name', kind: 'text' },
};
/** A library rarely holds more; past it the total reads "1000+". */
const COUNT_CAP = 1000;

export interface MediaService {
  upload(
    file: UploadedFile,
    name: string | undefined,
    by: { id: string; username: string },
  ): Promise<{ item: MediaDto; duplicate: boolean }>;
  list(query: MediaListQuery): Promise<KeysetPage<MediaDto>>;
  get(id: string): Promise<MediaDto>;
  rename(id: string, name: string): Promise<{ item: MediaDto; previousName: string }>;
  remove(id: string, force: boolean): Promise<MediaDto>;
}

/** The stored names of an image's two files. */
export function fileNamesOf(hash: string, extension: string): { mail: string; thumbnail: string } {
  return { mail: `${hash}.${extension}`, thumbnail: `${hash}-thumb.${extension}` };
}

function wordsOf(name: string): string[] {
  return [
    ...new Set(
      searchKey(name)
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean),
    ),
  ];
}

/** A display name from the upload's file name: its base name without the extension. */
function nameFromFile(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/\.[a-z0-9]{1,5}$/i, '')
    .replace(/\p{Cc}/gu, '')
    .trim();
  return clean.slice(0, MEDIA_NAME_MAX_LENGTH) || 'image';
}

const namesOf = (uses: readonly MediaUseDto[]) =>
  uses.map((use) => `${use.kind} "${use.name}"`).join(', ');

/** Mails still to go out would lose the image: even forced, no. */
function refuseWhileOwed(uses: readonly MediaUseDto[]): void {
  const owed = uses.filter(
    (use) => use.status && MEDIA_DELETE_BLOCKING_STATUSES.includes(use.status),
  );
  if (owed.length === 0) return;
  const names = namesOf(owed);
  throw new DomainError(
    'CONFLICT',
    `This image is in mails still to be sent by ${names}; delete it once they are sent or cancelled`,
    { usedBy: names },
  );
}

const noMedia = () => new DomainError('NOT_FOUND', 'No image with this id');

export function createMediaService({
  storage,
  siteUrl,
  images,
}: {
  storage: MediaStorage;
  siteUrl: string;
  /** Where uploads are checked and their variants made: the image process. */
  images: ImageProcessor;
}): MediaService {
  const urlOf = (file: string) =>
    storage.publicUrl?.(file) ?? `${siteUrl}${API_ROUTES.mediaFile.replace(':file', file)}`;

  const toDto = (doc: StoredMedia, usedBy: MediaDto['usedBy']): MediaDto => {
    const files = fileNamesOf(doc.hash, doc.extension);
    const by = doc.createdBy;
    return {
      id: doc.hash,
      name: doc.name,
      contentType: doc.contentType as MediaDeliveredType,
      width: doc.width,
      height: doc.height,
      size: doc.size,
      originalWidth: doc.originalWidth,
      originalHeight: doc.originalHeight,
      url: urlOf(files.mail),
      thumbnailUrl: urlOf(files.thumbnail),
      createdAt: doc.createdAt.toISOString(),
      createdBy: by?.id ? { id: String(by.id), username: by.username ?? '' } : null,
      usedBy,
    };
  };

  const withUses = async (docs: StoredMedia[]): Promise<MediaDto[]> => {
    const uses = await findMediaUses(docs.map((doc) => doc.hash));
    return docs.map((doc) => toDto(doc, uses.get(doc.hash) ?? []));
  };

  const findStored = async (id: string): Promise<StoredMedia> => {
    const doc = await MediaModel.findOne({ hash: id }).lean<StoredMedia>();
    if (!doc) throw noMedia();
    return doc;
  };

  const one = async (doc: StoredMedia) => (await withUses([doc]))[0] as MediaDto;

  /** The files first, then the record: a record never names a file that is not there. */
  const store = async (
    { hash, image }: ProcessedUpload,
    name: string,
    by: { id: string; username: string },
  ) => {
    const files = fileNamesOf(hash, image.extension);
    await Promise.all([
      storage.put(files.mail, image.mail.bytes, image.mail.contentType),
      storage.put(files.thumbnail, image.thumbnail.bytes, image.thumbnail.contentType),
    ]);
    return MediaModel.create({
      hash,
      name,
      nameWords: wordsOf(name),
      contentType: image.mail.contentType,
      extension: image.extension satisfies MediaExtension,
      width: image.mail.width,
      height: image.mail.height,
      size: image.mail.bytes.length,
      originalWidth: image.originalWidth,
      originalHeight: image.originalHeight,
      createdBy: { id: by.id, username: by.username },
    });
  };

  return {
    async upload(file, name, by) {
      // The content id comes from the image process, which reads the bytes:
      // a file uploaded again is processed again, then found by its id.
      const processed = await images.process(file.path, file.declaredType);
      const displayName = name ?? nameFromFile(file.fileName);
      // Stored without a look first: the unique index on the hash says
      // whether it was already there, so a new image costs no read by hash
      // (which FerretDB serves by reading every image). Storing an image
      // again writes the same bytes under the same names.
      try {
        const created = await store(processed, displayName, by);
        return { item: await one(created.toObject() as StoredMedia), duplicate: false };
      } catch (error) {
        if (!duplicateKeyOf(error)) throw error;
        return { item: await one(await findStored(processed.hash)), duplicate: true };
      }
    },

    async list(query) {
      const search = query.search ? searchKey(query.search) : '';
      const filter = search ? prefixFilter('nameWords', search) : {};
      const [window, total] = await Promise.all([
        findKeysetPage(MediaModel, filter, query, SORT_FIELDS),
        countUpTo(MediaModel, filter, COUNT_CAP),
      ]);
      const items = await withUses(window.rows as StoredMedia[]);
      return keysetPageOf(items, window, total, query.pageSize);
    },

    async get(id) {
      return one(await findStored(id));
    },

    async rename(id, name) {
      const before = await findStored(id);
      const after = await MediaModel.findOneAndUpdate(
        { hash: id },
        { $set: { name, nameWords: wordsOf(name) } },
        { returnDocument: 'after' },
      ).lean<StoredMedia>();
      if (!after) throw noMedia();
      return { item: await one(after), previousName: before.name };
    },

    async remove(id, force) {
      const doc = await findStored(id);
      const item = await one(doc);
      refuseWhileOwed(item.usedBy);
      if (item.usedBy.length > 0 && !force) {
        const names = namesOf(item.usedBy);
        throw new DomainError('CONFLICT', `This image is used by ${names}`, { usedBy: names });
      }
      const files = fileNamesOf(doc.hash, doc.extension);
      // The record first: once it is gone no page offers the image, and a
      // file left by a failed delete is only disk space.
      await MediaModel.deleteOne({ hash: id });
      await Promise.all([storage.delete(files.mail), storage.delete(files.thumbnail)]);
      return item;
    },
  };
}
