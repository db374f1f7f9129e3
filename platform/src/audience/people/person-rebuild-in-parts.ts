import { estimatedEnquiryCount, everyEnquiryOfAddress } from '../../contact/contact-by-address';
import { chunksOf } from '../../batched-writes';
import { deleteByIds } from '../../writes-by-id';
import { personOfRecords } from './person-of-records';
import {
  members,
  subscribers,
  suppressions,
  type AddressRecords,
  type MemberRecord,
  type SubscriberRecord,
  type SuppressionRecord,
} from './person-records';
import type { PeopleRefreshCounts } from './person-refresh';
import { writePeopleOver } from './person-refresh';
import { people, type StoredPerson } from './person.model';

/*
 * The rebuild of the people view on a store that serves only `{ _id: value }`
 * from an index (FerretDB 1.x: readsByIdOnly in embedded-store.ts). There,
 * reading a batch of addresses (`$in` over each source's key) and walking a
 * source a batch at a time (`_id` after the last, sorted) each read and
 * decode the whole collection, so the batched rebuild grew with the square
 * of the addresses: 20,000 enquiries took minutes, and ten times as many
 * would have taken hours. Here the addresses are split by a hash of their
 * key into parts of about ADDRESSES_PER_PART, and each part reads every
 * source once, from start to end, keeping only its own addresses' records:
 * one read of each collection per part, and one part's records in memory.
 */

/**
 * Addresses one part holds in memory with their records and stored people:
 * a worker's peak grows by about 18 MB (33 MB at 10,000, 60 MB at 20,000).
 */
export const ADDRESSES_PER_PART = 5_000;

const READ_BATCH = 1000;

/** FNV-1a over the key's UTF-16 units: stable across processes, and spreads addresses evenly. */
export function partOf(key: string, parts: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index += 1) {
    hash = Math.imul(hash ^ key.charCodeAt(index), 0x01000193);
  }
  return (hash >>> 0) % parts;
}

/**
 * Parts of at most `addressesPerPart` addresses: the people stored, or the
 * records that may hold one (an address is often in several), whichever is more.
 */
async function partsNeeded(addressesPerPart: number): Promise<number> {
  const [stored, ...sources] = await Promise.all([
    people().estimatedDocumentCount(),
    estimatedEnquiryCount(),
    subscribers().estimatedDocumentCount(),
    members().estimatedDocumentCount(),
  ]);
  const records = sources.reduce((sum, count) => sum + count, 0);
  return Math.max(1, Math.ceil(Math.max(stored ?? 0, records) / addressesPerPart));
}

/** One part's addresses: the records of each, and the person stored for it now. */
class PartRecords {
  readonly records = new Map<string, AddressRecords>();
  readonly stored = new Map<string, StoredPerson>();

  constructor(
    private readonly part: number,
    private readonly parts: number,
  ) {}

  owns(key: string): boolean {
    return partOf(key, this.parts) === this.part;
  }

  of(key: string): AddressRecords {
    let held = this.records.get(key);
    if (!held) {
      held = { enquiries: [], subscriber: null, members: [], suppression: null };
      this.records.set(key, held);
    }
    return held;
  }
}

/**
 * Every source read once for one part. A suppression names an address
 * without making it a person, as in the batched rebuild (which walks the
 * enquiries, subscribers, members and people, never the suppressions), so it
 * is kept only for an address something else holds.
 */
async function readPart(part: PartRecords): Promise<void> {
  for await (const enquiry of everyEnquiryOfAddress()) {
    if (part.owns(enquiry.key)) part.of(enquiry.key).enquiries.push(enquiry);
  }
  for await (const subscriber of subscribers().find({}).batchSize(READ_BATCH)) {
    const row = subscriber as SubscriberRecord;
    if (part.owns(row.email)) part.of(row.email).subscriber = row;
  }
  for await (const member of members().find({}).batchSize(READ_BATCH)) {
    const row = member as MemberRecord;
    if (part.owns(row.key)) part.of(row.key).members.push(row);
  }
  for await (const person of people().find({}).batchSize(READ_BATCH)) {
    if (!part.owns(person._id)) continue;
    part.stored.set(person._id, person);
    part.of(person._id);
  }
  for await (const suppression of suppressions().find({}).batchSize(READ_BATCH)) {
    const row = suppression as SuppressionRecord;
    const held = part.records.get(row._id);
    if (held) held.suppression = row;
  }
}

/** People written per step: a part's new people are not all held at once. */
const WRITE_CHUNK = 1000;

async function rebuildPart(part: PartRecords): Promise<PeopleRefreshCounts> {
  await readPart(part);
  const counts: PeopleRefreshCounts = { refreshed: 0, removed: 0 };
  for (const keys of chunksOf([...part.records.keys()], WRITE_CHUNK)) {
    const persons: StoredPerson[] = [];
    const gone: string[] = [];
    for (const key of keys) {
      const person = personOfRecords(key, part.records.get(key) as AddressRecords);
      if (person) persons.push(person);
      else if (part.stored.has(key)) gone.push(key);
    }
    await writePeopleOver(persons, part.stored);
    counts.refreshed += persons.length;
    counts.removed += await deleteByIds(people(), gone);
  }
  return counts;
}

/**
 * Rebuilds the people view part by part; `signal` stops it between two
 * parts. `addressesPerPart` is the tests' to make several parts of a few.
 */
export async function rebuildPeopleInParts(
  signal?: AbortSignal,
  addressesPerPart = ADDRESSES_PER_PART,
): Promise<PeopleRefreshCounts> {
  const parts = await partsNeeded(addressesPerPart);
  const counts: PeopleRefreshCounts = { refreshed: 0, removed: 0 };
  for (let part = 0; part < parts; part += 1) {
    signal?.throwIfAborted();
    const done = await rebuildPart(new PartRecords(part, parts));
    counts.refreshed += done.refreshed;
    counts.removed += done.removed;
  }
  return counts;
}
