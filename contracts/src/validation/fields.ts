import { string } from 'yup';
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
