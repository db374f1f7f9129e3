import AsyncLock from 'async-lock';
import mongoose from 'mongoose';

/*
 * What the embedded store, FerretDB 1.x, needs that MongoDB does not. The
 * code is written for MongoDB; these are the two places where it bends for
 * FerretDB (see docs/architecture.md, "The embedded store"):
 *
 * - FerretDB serves no query from an index but a lookup by `_id`: a sorted
 *   page, a count or a prefix search reads the whole collection (about a
 *   second at 20,000 enquiries). `isEmbeddedStore` tells the contacts list
 *   to take its page and search from its sorted sets in Redis instead
 *   (contact/contact-index-sets.ts, read by the API); on MongoDB its indexes
 *   serve them.
 * - FerretDB does not serialise two updates of one document: both read the
 *   same "before", and one of the writes is lost. MongoDB applies them one
 *   after the other. The kept figures count each change from its before and
 *   after, so `oneWriterPerDocument` makes this process's writes to one
 *   document wait for each other. It is harmless on MongoDB, which does the
 *   same itself, and the scheduled reconciliation repairs what two processes
 *   can still race (the API and a worker writing one subscriber).
 */

let detected: Promise<boolean> | undefined;

/** Whether the connected server is FerretDB (asked once per connection). */
export function isEmbeddedStore(): Promise<boolean> {
  const db = mongoose.connection.db;
  if (!db) return Promise.resolve(false);
  detected ??= db
    .admin()
    .command({ buildInfo: 1 })
    .then(
      (info) => typeof info.ferretdbVersion === 'string',
      () => {
        // Unknown for now: ask again next time rather than remember a guess.
        detected = undefined;
        return false;
      },
    );
  return detected;
}

// A new connection may be to another server.
mongoose.connection.on('connected', () => {
  detected = undefined;
});

const locks = new AsyncLock({ maxPending: 10_000 });

/**
 * Runs `write` once every earlier write of this process to the same document
 * (named by `key`, e.g. `contact:<id>`) has finished.
 */
export function oneWriterPerDocument<T>(key: string, write: () => Promise<T>): Promise<T> {
  return locks.acquire(key, write);
}
