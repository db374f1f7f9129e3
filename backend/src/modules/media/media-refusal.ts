import {
  formatValidationMessage,
  type ErrorCode,
  type Locale,
  type ValidationMessage,
} from '@agency/contracts';
import { HttpError } from '../../errors';

/** Why an upload is refused, as the dashboard shows it next to the file. */
export class MediaRefusal extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly reason: ValidationMessage,
  ) {
    super(formatValidationMessage(reason, 'en'));
    this.name = 'MediaRefusal';
  }

  /** The API's answer: the English message, and `fields.file` in the caller's language. */
  toHttpError(locale: Locale): HttpError {
    return new HttpError(this.code, this.message, {
      file: formatValidationMessage(this.reason, locale),
    });
  }
}
