import { mixed, number, string } from 'yup';
import type { ValidationMessage, ValidationMessageKey } from './messages';

export function message(
  key: ValidationMessageKey,
  values?: ValidationMessage['values'],
): ValidationMessage {
  return values ? { key, values } : { key };
}

/**
 * A trimmed text field that refuses anything that did not arrive as a string.
 * Yup would otherwise turn 42 into "42"; an API facing the internet should say
 * "wrong type" instead, and an object such as {"$gt": ""} must never pass.
 */
export function text(maxLength: number) {
  return string()
    .transform((_value: unknown, original: unknown) =>
      typeof original === 'string' ? original.trim() : original,
    )
    .typeError(message('mustBeText'))
    .max(maxLength, message('maxLength', { count: maxLength }));
}

/** Optional text where an empty string means "not given" (forms send ""). */
export function optionalText(maxLength: number) {
  return text(maxLength)
    .transform((value: unknown) => (value === '' || value === null ? undefined : value))
    .optional();
}

/** One of a fixed list of strings, reported with the allowed values. */
export function oneOfText<T extends string>(values: readonly T[]) {
  return mixed<T>()
    .transform((value: unknown) => (typeof value === 'string' ? value.trim() : value))
    .oneOf(values, message('oneOf', { values: values.join(', ') }));
}

/**
 * A number from a JSON body: a string such as "12" is refused rather than
 * converted, so the API does exactly what the form sends. `null` and absent
 * both mean "no value".
 */
export function jsonNumber() {
  return number()
    .transform((_value: unknown, original: unknown) =>
      typeof original === 'number' ? original : original === null ? undefined : Number.NaN,
    )
    .typeError(message('mustBeNumber'));
}

/** A whole number from a query string ("?page=2"), where every value is text. */
export function queryInteger(min: number, max: number) {
  return number()
    .transform((_value: unknown, original: unknown) =>
      typeof original === 'string' && /^\d{1,9}$/.test(original.trim())
        ? Number(original.trim())
        : original === undefined
          ? undefined
          : Number.NaN,
    )
    .typeError(message('mustBeWholeNumber'))
    .min(min, message('minValue', { min }))
    .max(max, message('maxValue', { max }));
}

export const URL_MAX_LENGTH = 2048;

/** An absolute http(s) address, as the browser's URL input would accept it. */
export function urlText(maxLength = URL_MAX_LENGTH) {
  return optionalText(maxLength)
    .url(message('urlInvalid'))
    .matches(/^https?:\/\//i, { message: message('urlInvalid'), excludeEmptyString: true });
}

const OBJECT_ID = /^[0-9a-f]{24}$/i;

/** A stored record's id (a MongoDB ObjectId in hex). */
export function isRecordId(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID.test(value);
}

export function recordId() {
  return text(24).test(
    'record-id',
    message('idInvalid'),
    (value) => value === undefined || isRecordId(value),
  );
}
