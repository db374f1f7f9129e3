import { boolean, object, string, type InferType } from 'yup';
import { message, optionalText, text } from '../validation/fields';
import { keysetListQuerySchema } from './list-query';
import { UNFINISHED_STATUSES, type CampaignStatus } from './campaigns';

/**
 * The media library: images staff upload for campaigns and templates. The
 * API stores what it made of the upload (never the bytes as sent), under
 * names that are the upload's content hash, so one file uploaded twice is
 * stored once.
 */

/** The largest upload accepted (10 MB); a larger body is refused before it is read whole. */
export const MEDIA_MAX_BYTES = 10 * 1024 * 1024;
/**
 * The most pixels an image may have (width x height, per frame), checked from
 * its header before it is decoded: a small file that would decode into
 * gigabytes (a decompression bomb) is refused.
 */
export const MEDIA_MAX_PIXELS = 40_000_000;
/** Mail columns are 600 px; the mail variant is at most twice that wide for sharp screens. */
export const MEDIA_MAIL_WIDTH = 1200;
/** The library grid's thumbnails are at most this wide. */
export const MEDIA_THUMBNAIL_WIDTH = 320;
/** What an upload may be, by its bytes (the declared type must agree). */
export const MEDIA_ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type MediaAcceptedType = (typeof MEDIA_ACCEPTED_TYPES)[number];
/**
 * What is stored and served: WebP is delivered as JPEG (opaque) or PNG (with
 * transparency), since Outlook and older mail clients cannot show it.
 */
export const MEDIA_DELIVERED_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;
export type MediaDeliveredType = (typeof MEDIA_DELIVERED_TYPES)[number];
/** The multipart field the upload's file travels in. */
export const MEDIA_UPLOAD_FIELD = 'file';
export const MEDIA_NAME_MAX_LENGTH = 200;
export const MEDIA_ALT_MAX_LENGTH = 300;
/** A media id is the SHA-256 of the uploaded bytes, in lower-case hex. */
export const MEDIA_ID_PATTERN = /^[a-f0-9]{64}$/;

/** The upload's other multipart fields: a display name (the file's name when left out). */
export const mediaUploadSchema = object({
  name: optionalText(MEDIA_NAME_MAX_LENGTH),
});
export type MediaUploadInput = InferType<typeof mediaUploadSchema>;

/** Renaming an image in the library. */
export const mediaUpdateSchema = object({
  name: text(MEDIA_NAME_MAX_LENGTH).required(message('required')),
});
export type MediaUpdateInput = InferType<typeof mediaUpdateSchema>;

export const MEDIA_SORT_FIELDS = ['createdAt', 'name'] as const;
/** The library's pages: newest first, searched by the start of any word of the name. */
export const mediaListQuerySchema = keysetListQuerySchema({
  sortFields: MEDIA_SORT_FIELDS,
  defaultSort: '-createdAt',
  filters: {},
});
export type MediaListQuery = InferType<typeof mediaListQuerySchema>;

/** `DELETE …/media/:id?force=true` deletes an image still in use (after the UI asked). */
export const mediaDeleteQuerySchema = object({
  force: boolean().typeError(message('mustBeTrueOrFalse')).default(false),
});

/**
 * The image picker's form (campaign editor, template logo): alt text is
 * required unless the image is marked decorative, when it must stay empty.
 */
export const imageInsertSchema = object({
  decorative: boolean().default(false),
  alt: string()
    .trim()
    .max(MEDIA_ALT_MAX_LENGTH, message('maxLength', { count: MEDIA_ALT_MAX_LENGTH }))
    .when('decorative', {
      is: true,
      then: (alt) => alt.transform(() => ''),
      otherwise: (alt) => alt.required(message('altRequired')),
    }),
});
export type ImageInsertInput = InferType<typeof imageInsertSchema>;

/** One campaign or template whose content shows the image. */
/**
 * Campaigns with mails still to go out (scheduled, or a send under way):
 * an image they show cannot be deleted, even forced, or those mails would
 * lose it.
 */
export const MEDIA_DELETE_BLOCKING_STATUSES: readonly CampaignStatus[] = [
  'scheduled',
  ...UNFINISHED_STATUSES,
];

export interface MediaUseDto {
  kind: 'campaign' | 'template';
  id: string;
  name: string;
  /** A campaign's status (a draft can still change; a sent one shows it in its archive). */
  status?: CampaignStatus;
}

export interface MediaDto {
  /** The content hash: the same bytes always get the same id. */
  id: string;
  name: string;
  /** The mail variant's type (never WebP). */
  contentType: MediaDeliveredType;
  /** The mail variant's size in pixels (at most MEDIA_MAIL_WIDTH wide). */
  width: number;
  height: number;
  /** The mail variant's size in bytes. */
  size: number;
  /** The upload's own size in pixels, as uploaded (orientation applied). */
  originalWidth: number;
  originalHeight: number;
  /** Absolute (SITE_URL), immutable, cached for a year: the address mails use. */
  url: string;
  thumbnailUrl: string;
  createdAt: string;
  createdBy: { id: string; username: string } | null;
  usedBy: MediaUseDto[];
}

/** An upload's answer: 201 with `duplicate: false`, or 200 with the image already stored. */
export interface MediaUploadResponse {
  item: MediaDto;
  duplicate: boolean;
}
