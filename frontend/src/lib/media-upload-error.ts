import {
  MEDIA_ACCEPTED_TYPES,
  MEDIA_MAX_BYTES,
  VALIDATION_MESSAGES,
  isApiErrorBody,
  type ValidationMessage,
  type ValidationMessageKey,
} from '@agency/contracts';

/** Why an upload was refused: a message the page can word in its language, or the server's own text. */
export type UploadRefusal = ValidationMessage | string;

const MEDIA_KEYS = [
  'mediaFileRequired',
  'mediaTooLarge',
  'mediaTypeUnsupported',
  'mediaSvgRefused',
  'mediaContentMismatch',
  'mediaTooManyPixels',
  'mediaUnreadable',
] as const satisfies readonly ValidationMessageKey[];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The English wording of each refusal as a pattern, its `{{values}}` captured. */
const ENGLISH_PATTERNS = MEDIA_KEYS.map((key) => {
  const template = VALIDATION_MESSAGES.en[key];
  const names = [...template.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1] ?? '');
  const source = template
    .split(/\{\{\w+\}\}/)
    .map(escapeRegExp)
    .join('(.+?)');
  return { key, names, pattern: new RegExp(`^${source}$`) };
});

/**
 * The API refuses an upload in English (`error.fields.file`): staff read the
 * same reason in their own language when it is one the catalogue knows.
 */
export function refusalFromMessage(text: string): UploadRefusal {
  for (const { key, names, pattern } of ENGLISH_PATTERNS) {
    const match = pattern.exec(text.trim());
    if (!match) continue;
    const values = Object.fromEntries(names.map((name, index) => [name, match[index + 1] ?? '']));
    return names.length > 0 ? { key, values } : { key };
  }
  return text;
}

/** The refusal an error answer carries: the file's field first, then the error's message. */
export function refusalFromBody(body: unknown): UploadRefusal | undefined {
  if (!isApiErrorBody(body)) return undefined;
  const fieldReason = body.error.fields?.file;
  if (typeof fieldReason === 'string' && fieldReason) return refusalFromMessage(fieldReason);
  return body.error.message ? refusalFromMessage(body.error.message) : undefined;
}

/**
 * What can be told before sending: too large, or a type the library never
 * takes. The server checks again (and checks the bytes); this only spares a
 * long upload that would be refused.
 */
export function refusalBeforeUpload(file: File): UploadRefusal | undefined {
  if (file.size > MEDIA_MAX_BYTES) {
    return { key: 'mediaTooLarge', values: { max: MEDIA_MAX_BYTES / 1024 / 1024 } };
  }
  if (file.type === 'image/svg+xml') return { key: 'mediaSvgRefused' };
  if (file.type && !(MEDIA_ACCEPTED_TYPES as readonly string[]).includes(file.type)) {
    return { key: 'mediaTypeUnsupported' };
  }
  return undefined;
}
