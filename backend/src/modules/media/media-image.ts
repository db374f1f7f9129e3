import { createHash } from 'node:crypto';
import sharp, { type Metadata, type Sharp } from 'sharp';
import {
  MEDIA_ACCEPTED_TYPES,
  MEDIA_MAIL_WIDTH,
  MEDIA_MAX_PIXELS,
  MEDIA_THUMBNAIL_WIDTH,
  message,
  type MediaAcceptedType,
  type MediaDeliveredType,
} from '@agency/contracts';
import { MediaRefusal } from './media-refusal';

// Every upload is different: libvips' operation cache would only hold memory.
sharp.cache(false);
// One libvips thread per image: the image process's uploads in parallel
// (MEDIA_PROCESSING_CONCURRENCY) then take that many cores at most.
sharp.concurrency(1);

export type MediaExtension = 'jpg' | 'png' | 'gif';

export interface ImageVariant {
  bytes: Buffer;
  contentType: MediaDeliveredType;
  width: number;
  height: number;
}

/** What an upload becomes: the mail variant and the thumbnail. */
export interface ProcessedImage {
  extension: MediaExtension;
  mail: ImageVariant;
  thumbnail: ImageVariant;
  originalWidth: number;
  originalHeight: number;
}

const FORMAT_TYPES: Record<string, MediaAcceptedType> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

const EXTENSIONS: Record<MediaDeliveredType, MediaExtension> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
};

/** An upload's id: the SHA-256 of its bytes, so the same file always gets the same one. */
export function contentIdOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function extensionOf(type: MediaDeliveredType): MediaExtension {
  return EXTENSIONS[type];
}

/**
 * Markup a browser would act on if the file were ever taken for HTML: an
 * image whose bytes also carry it is built to be both, and is refused.
 */
const MARKUP = /<script|<html|<!doctype|<svg|<iframe|javascript:/i;
/** Text slices of the bytes, scanned in turn: never one 10 MB string. */
const SCAN_SLICE = 256 * 1024;
/** Slices overlap by the longest marker, so none is missed across a boundary. */
const SCAN_OVERLAP = 'javascript:'.length;

function carriesMarkup(bytes: Buffer): boolean {
  for (let start = 0; start < bytes.length; start += SCAN_SLICE) {
    const end = Math.min(bytes.length, start + SCAN_SLICE + SCAN_OVERLAP);
    if (MARKUP.test(bytes.toString('latin1', start, end))) return true;
  }
  return false;
}

const isAccepted = (type: string): type is MediaAcceptedType =>
  (MEDIA_ACCEPTED_TYPES as readonly string[]).includes(type);

/** The declared type as sent, without parameters, lower-cased. */
function bareType(declared: string): string {
  return declared.split(';')[0]?.trim().toLowerCase() ?? '';
}

/** Reads the header only: the format and the size, before a pixel is decoded. */
async function headerOf(bytes: Buffer, declared: string): Promise<Metadata> {
  try {
    return await sharp(bytes, { animated: true, limitInputPixels: false }).metadata();
  } catch {
    // Not an image sharp knows: an SVG without its XML header, a text, a PDF...
    if (/<svg/i.test(bytes.subarray(0, 4096).toString('latin1'))) {
      throw new MediaRefusal('UNSUPPORTED_MEDIA_TYPE', message('mediaSvgRefused'));
    }
    throw isAccepted(declared)
      ? new MediaRefusal('UNSUPPORTED_MEDIA_TYPE', message('mediaContentMismatch'))
      : new MediaRefusal('UNSUPPORTED_MEDIA_TYPE', message('mediaTypeUnsupported'));
  }
}

/** The upload's real type from its bytes; refusals name why it is not taken. */
async function acceptedTypeOf(
  header: Metadata,
  declared: string,
  bytes: Buffer,
): Promise<MediaAcceptedType> {
  if (header.format === 'svg' || declared === 'image/svg+xml') {
    throw new MediaRefusal('UNSUPPORTED_MEDIA_TYPE', message('mediaSvgRefused'));
  }
  const detected = FORMAT_TYPES[header.format ?? ''];
  if (!detected || !isAccepted(declared)) {
    throw new MediaRefusal('UNSUPPORTED_MEDIA_TYPE', message('mediaTypeUnsupported'));
  }
  if (detected !== declared || carriesMarkup(bytes)) {
    throw new MediaRefusal('UNSUPPORTED_MEDIA_TYPE', message('mediaContentMismatch'));
  }
  return detected;
}

/** Width and height as shown, EXIF orientation applied; one frame's height for an animation. */
function displayedSize(header: Metadata): { width: number; height: number } {
  const width = header.width ?? 0;
  const height = header.pageHeight ?? header.height ?? 0;
  const turned = (header.orientation ?? 1) >= 5;
  return turned ? { width: height, height: width } : { width, height };
}

function refuseTooManyPixels(header: Metadata): void {
  const { width, height } = displayedSize(header);
  const frames = header.pages ?? 1;
  if (width * height * frames > MEDIA_MAX_PIXELS) {
    throw new MediaRefusal(
      'VALIDATION_FAILED',
      message('mediaTooManyPixels', { max: MEDIA_MAX_PIXELS / 1_000_000 }),
    );
  }
}

const isAnimation = (header: Metadata) => (header.pages ?? 1) > 1;

/**
 * WebP is not shown by Outlook and older clients: an animated one becomes
 * an animated GIF (its frames kept, as an animated GIF's are), a still one
 * PNG if it has transparency, else JPEG.
 */
function deliveredTypeOf(type: MediaAcceptedType, header: Metadata): MediaDeliveredType {
  if (type !== 'image/webp') return type;
  if (isAnimation(header)) return 'image/gif';
  return header.hasAlpha ? 'image/png' : 'image/jpeg';
}

function encode(image: Sharp, type: MediaDeliveredType): Sharp {
  if (type === 'image/jpeg') return image.jpeg({ quality: 85, progressive: true });
  if (type === 'image/png') return image.png({ compressionLevel: 8 });
  return image.gif();
}

/**
 * One variant at most `maxWidth` wide (never enlarged): orientation applied,
 * in sRGB, and without metadata (EXIF, GPS, XMP, comments), which sharp
 * drops unless asked to keep it.
 */
async function variant(
  bytes: Buffer,
  animated: boolean,
  type: MediaDeliveredType,
  maxWidth: number,
): Promise<ImageVariant> {
  // The pixel limit again, in libvips itself: the header check is not the only guard.
  const input = sharp(bytes, { animated, limitInputPixels: MEDIA_MAX_PIXELS, failOn: 'error' });
  const oriented = animated ? input : input.rotate();
  const resized = oriented
    .resize({ width: maxWidth, withoutEnlargement: true })
    .toColourspace('srgb');
  const { data, info } = await encode(resized, type).toBuffer({ resolveWithObject: true });
  return {
    bytes: data,
    contentType: type,
    width: info.width,
    height: info.pageHeight ?? info.height,
  };
}

/**
 * Checks an upload by its bytes and makes its mail variant and thumbnail.
 * The decoding and encoding run on libvips' threads, off the event loop.
 */
export async function processImage(bytes: Buffer, declaredType: string): Promise<ProcessedImage> {
  const declared = bareType(declaredType);
  const header = await headerOf(bytes, declared);
  const accepted = await acceptedTypeOf(header, declared, bytes);
  refuseTooManyPixels(header);
  const delivered = deliveredTypeOf(accepted, header);
  const animated = delivered === 'image/gif' && isAnimation(header);
  try {
    const mail = await variant(bytes, animated, delivered, MEDIA_MAIL_WIDTH);
    // From the mail variant, not the upload: a second decode of a large
    // original would double the work for an image 320 px wide.
    const thumbnail = await variant(mail.bytes, animated, delivered, MEDIA_THUMBNAIL_WIDTH);
    const original = displayedSize(header);
    return {
      extension: extensionOf(delivered),
      mail,
      thumbnail,
      originalWidth: original.width,
      originalHeight: original.height,
    };
  } catch {
    throw new MediaRefusal('VALIDATION_FAILED', message('mediaUnreadable'));
  }
}
