import { ERROR_CODES, type ApiErrorBody, type ErrorCode } from '@agency/contracts';
import { DomainError } from '@agency/platform';

/** An error the API answers with as it is: status, code, message and field reasons. */
export class HttpError extends DomainError {
  readonly status: number;

  constructor(
    code: ErrorCode,
    message: string,
    fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(code, message, fields);
    this.name = 'HttpError';
    this.status = ERROR_CODES[code];
  }

  /** The answer to a domain module's refusal: its code, message and fields. */
  static from(refusal: DomainError): HttpError {
    return refusal instanceof HttpError
      ? refusal
      : new HttpError(refusal.code, refusal.message, refusal.fields);
  }

  toBody(): ApiErrorBody {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fields && { fields: this.fields }),
      },
    };
  }
}
