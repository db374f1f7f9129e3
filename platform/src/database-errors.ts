/** MongoDB's code for a write refused by a unique index (`_id` included). */
const DUPLICATE_KEY = 11000;

function codeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

/**
 * True when a write failed only because its documents exist already: a
 * single duplicate, or an unordered bulk insert whose every refusal is one.
 */
export function isDuplicateKeyError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const writeErrors = 'writeErrors' in error ? error.writeErrors : undefined;
  if (Array.isArray(writeErrors) && writeErrors.length > 0) {
    return writeErrors.every((writeError: unknown) => codeOf(writeError) === DUPLICATE_KEY);
  }
  return codeOf(error) === DUPLICATE_KEY;
}

/** MongoDB's code for a collection that does not exist (yet), which some commands refuse. */
const NAMESPACE_NOT_FOUND = 26;

export function isMissingCollectionError(error: unknown): boolean {
  return codeOf(error) === NAMESPACE_NOT_FOUND;
}
