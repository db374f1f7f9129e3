import DataLoader from 'dataloader';
import { isDuplicateKeyError } from './database-errors';

/**
 * A bulk insert that goes on past a refused document and names each refusal
 * (a document failing validation is reported, not silently skipped).
 */
export const BULK_INSERT = { ordered: false, throwOnValidationError: true } as const;

export interface InsertBatchOptions {
  /** How long the first insert of a batch waits for others to join it. */
  waitMs?: number;
  maxBatchSize?: number;
  /** A document that exists already (same `_id`) counts as inserted. */
  duplicatesAreInserted?: boolean;
}

/**
 * The most update statements one command carries. FerretDB 1.x keeps each
 * statement's read of its document open until the whole command ends, and
 * its SQLite backend holds 100 connections: an update command of 100
 * statements that match documents waits for a connection forever, and every
 * client of the store with it. On MongoDB a command of 50 costs about what
 * one of 500 does.
 */
export const UPDATE_STATEMENTS_PER_COMMAND = 50;

/** The items in consecutive slices of at most `size`, in order. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) {
    chunks.push(items.slice(start, start + size));
  }
  return chunks;
}

interface WriteErrorLike {
  index?: unknown;
  code?: unknown;
}

/**
 * The refusals of an unordered bulk insert, by the index of the document
 * refused: mongoose lists a result per document when one fails validation,
 * the driver lists the store's refusals (a duplicate `_id`...).
 */
function refusalsByIndex(error: unknown): Map<number, unknown> | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const refusals = new Map<number, unknown>();
  if ('results' in error && Array.isArray(error.results)) {
    error.results.forEach((result: unknown, index) => {
      if (result instanceof Error) refusals.set(index, result);
    });
  }
  if ('writeErrors' in error && Array.isArray(error.writeErrors)) {
    for (const writeError of error.writeErrors as WriteErrorLike[]) {
      if (typeof writeError.index === 'number') refusals.set(writeError.index, writeError);
    }
  }
  return refusals.size > 0 ? refusals : undefined;
}

/**
 * Inserts documents the way concurrent callers write them one by one, but
 * in one `insertMany` per batch: each caller waits for its own document,
 * and only the documents refused fail. On a store that commits every write
 * on its own (the embedded FerretDB), one write of 50 documents costs about
 * what one write of one document does.
 */
export function insertBatcher(
  /** One unordered bulk insert: pass `BULK_INSERT` as its options. */
  insertMany: (documents: Record<string, unknown>[]) => Promise<unknown>,
  { waitMs = 2, maxBatchSize = 200, duplicatesAreInserted = false }: InsertBatchOptions = {},
): (document: Record<string, unknown>) => Promise<void> {
  const loader = new DataLoader<Record<string, unknown>, true>(
    async (documents) => {
      try {
        await insertMany([...documents]);
        return documents.map(() => true as const);
      } catch (error: unknown) {
        const refusals = refusalsByIndex(error);
        if (!refusals) return documents.map(() => toError(error));
        return documents.map((_document, index) => {
          const refusal = refusals.get(index);
          if (!refusal) return true as const;
          if (duplicatesAreInserted && isDuplicateKeyError(refusal)) return true as const;
          return toError(refusal, error);
        });
      }
    },
    {
      cache: false,
      maxBatchSize,
      batchScheduleFn: (run) => setTimeout(run, waitMs),
    },
  );
  return async (document) => {
    await loader.load(document);
  };
}

function toError(refusal: unknown, batchError?: unknown): Error {
  if (refusal instanceof Error) return refusal;
  const error = new Error(
    batchError instanceof Error ? batchError.message : 'insert refused by the store',
  );
  Object.assign(error, refusal);
  return error;
}

/**
 * Deletes by `_id` the way concurrent callers delete one document each, but
 * in one `deleteMany` per batch. The embedded FerretDB scans the collection
 * for every delete: 50 deletes one by one took 518 ms over 3,000 documents,
 * one `deleteMany` of the same 50 took 88 ms.
 */
export function deleteBatcher(
  deleteMany: (ids: string[]) => Promise<unknown>,
  { waitMs = 5, maxBatchSize = 500 }: Pick<InsertBatchOptions, 'waitMs' | 'maxBatchSize'> = {},
): (id: string) => Promise<void> {
  const loader = new DataLoader<string, true>(
    async (ids) => {
      await deleteMany([...ids]);
      return ids.map(() => true as const);
    },
    { cache: false, maxBatchSize, batchScheduleFn: (run) => setTimeout(run, waitMs) },
  );
  return async (id) => {
    await loader.load(id);
  };
}
