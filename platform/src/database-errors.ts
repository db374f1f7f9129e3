import type { mongo } from 'mongoose';

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

/**
 * Inserts documents in one unordered bulk write, those whose `_id` (or other
 * unique key) is taken already left as they are: a write replayed after a
 * crash, or met by another process first. Returns the indexes of the
 * documents that were there already; any other refusal is thrown.
 */
export async function insertUnlessPresent<T extends mongo.Document>(
  collection: mongo.Collection<T>,
  documents: mongo.OptionalUnlessRequiredId<T>[],
): Promise<number[]> {
  if (documents.length === 0) return [];
  try {
    await collection.insertMany(documents, { ordered: false });
    return [];
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    return refusedIndexes(error);
  }
}

/** The documents a bulk insert refused, by index; a refusal without that list came from the one document. */
function refusedIndexes(error: unknown): number[] {
  const writeErrors =
    typeof error === 'object' && error !== null && 'writeErrors' in error
      ? error.writeErrors
      : undefined;
  if (!Array.isArray(writeErrors)) return [0];
  return writeErrors.map((writeError: unknown) =>
    typeof writeError === 'object' && writeError !== null && 'index' in writeError
      ? Number(writeError.index)
      : 0,
  );
}
