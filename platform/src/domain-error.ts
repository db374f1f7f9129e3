import type { ErrorCode } from '@agency/contracts';

/**
 * A refusal a domain module states in the API's error vocabulary (the codes
 * of contracts' ERROR_CODES, with field reasons), without knowing HTTP: the
 * API answers it as it is, with the code's status. Modules throw it where a
 * request names something missing, conflicting or invalid.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
