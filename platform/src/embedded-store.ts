import AsyncLock from 'async-lock';
import mongoose from 'mongoose';
import { chosenSwitch } from './store-workaround-switches';

/*
 * What the embedded store, FerretDB 1.x, needs that MongoDB does not. The
 * code is written for MongoDB; every place where it bends for FerretDB is
 * named below (docs/architecture.md, "The embedded store", lists them too).
 * A workaround the code can do without has a switch here: it applies where
 * it does today unless a test turns it on or off (`setStoreWorkarounds` in
 * testing/store-workarounds.ts; store-workaround-switches.ts keeps the
 * choice), so the tests run the same behaviour both ways against their store.
 */

/** One place where the code bends for a store. */
export interface StoreWorkaround {
  /** The store that needs it. */
  store: 'FerretDB 1.x';
  /** What that store does that the code bends for. */
  why: string;
  /** Where it applies unless a test says otherwise. */
  appliesOn: 'the embedded store' | 'every store';
  /** The files that hold it. */
  where: readonly string[];
  /** Whether a test may turn it off: only where the code is right without it. */
  switchable: boolean;
}

export const STORE_WORKAROUNDS = {
  contactsIndexInRedis: {
    store: 'FerretDB 1.x',
    why:
      'It serves no query from an index but a lookup by `_id`: a sorted page, a count or a ' +
      'prefix search reads the whole collection (about a second at 20,000 enquiries). The ' +
      "contacts list takes its page and search from sorted sets in Redis instead; MongoDB's " +
      'indexes serve the same queries.',
    appliesOn: 'the embedded store',
    where: [
      'platform/src/contact/contact-index-sets.ts',
      'platform/src/contact/contact-index-repair.ts',
      'backend/src/modules/contact/contact-list-index.ts',
    ],
    switchable: true,
  },
  oneWriterPerDocument: {
    store: 'FerretDB 1.x',
    why:
      'It does not serialise two updates of one document: both read the same "before" and one ' +
      'write is lost. The kept figures count each change from its before and after, so the ' +
      "process's writes to one enquiry or subscriber wait for each other. MongoDB serialises them " +
      'itself, where the wait is harmless; the reconciliation repairs what two processes race.',
    appliesOn: 'every store',
    where: [
      'platform/src/embedded-store.ts',
      'platform/src/newsletter/subscription-request.ts',
      'platform/src/newsletter/unsubscribe.ts',
      'backend/src/modules/newsletter/newsletter.service.ts',
      'backend/src/modules/contact/contact-admin.service.ts',
    ],
    switchable: true,
  },
  campaignLock: {
    store: 'FerretDB 1.x',
    why:
      'It applies an update by writing the whole document back, so a progress fold arriving just ' +
      'after the "sent" write could put "sending" back. Writers of one campaign take turns through ' +
      'a Redis lock. On MongoDB each write it guards is a conditional update, right without it; ' +
      'there the lock still keeps a schedule change and its delayed job together against the ' +
      "worker's start (a start meeting a failed reschedule being undone waits, rather than being " +
      "left to the recovery's next pass), so it stays on every store.",
    appliesOn: 'every store',
    where: ['platform/src/campaigns/campaign-lock.ts'],
    switchable: true,
  },
  readsWithoutFullDecode: {
    store: 'FerretDB 1.x',
    why:
      'It decodes every document it reads or writes whole, whatever the projection, and commits ' +
      'each write on its own. The data is shaped for it: a campaign reads the five-field contact ' +
      'addresses, not the enquiries; the ledger is one document per batch and side; counts come ' +
      'from $collStats; reads ask only for the fields their step uses; writes go in batches. These ' +
      'shapes are right on MongoDB too, so they are not switched.',
    appliesOn: 'every store',
    where: [
      'platform/src/contact/contact-address.model.ts',
      'platform/src/contact/contact-addresses.ts',
      'platform/src/campaigns/campaign-batch.model.ts',
      'platform/src/campaigns/campaign-ledger-pages.ts',
      'platform/src/batched-writes.ts',
      'platform/src/campaigns/mongo-campaign-store.ts',
    ],
    switchable: false,
  },
  campaignEventsOneBatchAtATime: {
    store: 'FerretDB 1.x',
    why:
      "It does not serialise two updates of one document, not even two $inc: a campaign's kept " +
      'results counted from two batches at once lose one. The campaign-events queue runs one batch ' +
      'at a time across every worker (BullMQ global concurrency), and each batch is one $inc per ' +
      'campaign. On MongoDB a version check would let batches run side by side; one at a time ' +
      'keeps up with the pixel and the redirect on both, so it is not switched.',
    appliesOn: 'every store',
    where: [
      'worker/src/jobs/campaign-events.processor.ts',
      'platform/src/campaigns/results/campaign-event-writer.ts',
    ],
    switchable: false,
  },
  readsByIdOnly: {
    store: 'FerretDB 1.x',
    why:
      'It serves from its `_id` index only a filter that is exactly `{ _id: value }`: a `$in` of ' +
      'ids, or an `_id` with another condition, reads and decodes the whole collection. The ' +
      "campaign event writer reads and clears a batch's activity documents one `_id` each " +
      'there (a batch costs its recipients, not every recipient stored), and deletes and updates ' +
      'by ids (writes-by-id.ts: the reconciliation dropping orphan addresses) go one statement ' +
      'per `_id`; MongoDB serves one `$in` from its index. The rebuild of the people view reads ' +
      'each source whole once per part of its addresses there (person-rebuild-in-parts.ts), ' +
      'instead of one `$in` per batch of addresses. A refresh of people reads the stored people ' +
      'and the suppressions one `_id` each there (reads-by-id.ts).',
    appliesOn: 'the embedded store',
    where: [
      'platform/src/embedded-store.ts',
      'platform/src/campaigns/results/activity-by-id.ts',
      'platform/src/writes-by-id.ts',
      'platform/src/reads-by-id.ts',
      'platform/src/audience/people/person-rebuild.ts',
    ],
    switchable: true,
  },
  updateCommandsInChunks: {
    store: 'FerretDB 1.x',
    why:
      "It keeps each statement's read of its document open until the whole update command ends, " +
      'and its SQLite backend holds 100 connections: a bulk write of 100 statements matching ' +
      'documents waits for a connection forever, and every client of the store with it. Bulk ' +
      'updates go in commands of at most 50 statements, one after the other; on MongoDB that ' +
      'costs next to nothing, so it is not switched.',
    appliesOn: 'every store',
    where: [
      'platform/src/batched-writes.ts',
      'platform/src/campaigns/results/campaign-event-writer.ts',
    ],
    switchable: false,
  },
} as const satisfies Record<string, StoreWorkaround>;

export type StoreWorkaroundName = keyof typeof STORE_WORKAROUNDS;

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

/** Whether the contacts list keeps and reads its index in Redis: by default on FerretDB only. */
export function contactsIndexInRedisApplies(): Promise<boolean> {
  const chosen = chosenSwitch('contactsIndexInRedis');
  return chosen === undefined ? isEmbeddedStore() : Promise.resolve(chosen);
}

/** Whether reads and clears by id go one exact `_id` at a time: by default on FerretDB only. */
export function readsByIdOnlyApplies(): Promise<boolean> {
  const chosen = chosenSwitch('readsByIdOnly');
  return chosen === undefined ? isEmbeddedStore() : Promise.resolve(chosen);
}

/** Whether writers of one campaign document take turns: by default on every store. */
export function campaignLockApplies(): boolean {
  return chosenSwitch('campaignLock') ?? true;
}

const locks = new AsyncLock({ maxPending: 10_000 });

/**
 * Runs `write` once every earlier write of this process to the same document
 * (named by `key`, e.g. `contact:<id>`) has finished; at once when the
 * workaround is off.
 */
export function oneWriterPerDocument<T>(key: string, write: () => Promise<T>): Promise<T> {
  if (!(chosenSwitch('oneWriterPerDocument') ?? true)) return write();
  return locks.acquire(key, write);
}
