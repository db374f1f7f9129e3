import { appendFile, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mongo } from 'mongoose';
import {
  estimatedEnquiryCount,
  everyEnquiryOfAddress,
  type EnquiryOfAddress,
} from '../../contact/contact-by-address';
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
 * of the addresses: 20,000 enquiries took minutes. Filtering every source
 * once per part of the addresses grew with the square too, only slower (the
 * parts are bounded by the worker's memory, so there are more of them as
 * the view grows: 120 reads of 800,000 records at 200,000 contacts).
 *
 * So each source is read once, whole, and each record is appended to its
 * part's file in a temporary folder as it passes (a hash partition of the
 * records by address, outside the worker's memory); then each part's file
 * is read back alone, its people made and written. Every record is decoded
 * by the store once, the worker holds one part at a time, and the folder
 * (about 250 bytes a record) is removed at the end, failed or not.
 */

/**
 * Addresses one part holds in memory with their records and stored people:
 * a worker's peak grows by about 18 MB (33 MB at 10,000, 60 MB at 20,000).
 */
export const ADDRESSES_PER_PART = 5_000;

const READ_BATCH = 1000;

/** What a part gathers before it is appended to its file: 64 KB a part at most in memory. */
const PENDING_BYTES = 64 * 1024;

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

/** One record in a part's file, with the source it came from. */
type PartLine =
  | { source: 'enquiry'; record: EnquiryOfAddress }
  | { source: 'subscriber'; record: SubscriberRecord }
  | { source: 'member'; record: MemberRecord }
  | { source: 'person'; record: StoredPerson }
  | { source: 'suppression'; record: SuppressionRecord };

/**
 * The parts' files: records in BSON (which keeps dates and ids as the store
 * gave them), one document after another, each starting with its length.
 * A part's records are appended in the order they were read.
 */
class PartFiles {
  private readonly pending: Buffer[][];
  private readonly pendingBytes: number[];

  constructor(
    private readonly folder: string,
    readonly parts: number,
  ) {
    this.pending = Array.from({ length: parts }, () => []);
    this.pendingBytes = new Array<number>(parts).fill(0);
  }

  private fileOf(part: number): string {
    return join(this.folder, `part-${part}.bson`);
  }

  async add(key: string, line: PartLine): Promise<void> {
    const part = partOf(key, this.parts);
    const bytes = mongo.BSON.serialize(line, { ignoreUndefined: true });
    (this.pending[part] as Buffer[]).push(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length),
    );
    this.pendingBytes[part] = (this.pendingBytes[part] ?? 0) + bytes.length;
    if ((this.pendingBytes[part] ?? 0) >= PENDING_BYTES) await this.flush(part);
  }

  private async flush(part: number): Promise<void> {
    const waiting = this.pending[part] as Buffer[];
    if (waiting.length === 0) return;
    this.pending[part] = [];
    this.pendingBytes[part] = 0;
    await appendFile(this.fileOf(part), Buffer.concat(waiting));
  }

  async flushAll(): Promise<void> {
    for (let part = 0; part < this.parts; part += 1) await this.flush(part);
  }

  /** A part's records, in the order they were added; none when no record fell in it. */
  async *linesOf(part: number): AsyncGenerator<PartLine> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.fileOf(part));
    } catch (error: unknown) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (let at = 0; at < bytes.length;) {
      const length = bytes.readInt32LE(at);
      yield mongo.BSON.deserialize(bytes.subarray(at, at + length)) as PartLine;
      at += length;
    }
  }
}

/**
 * Every source read once, each record appended to its address's part. The
 * people come after the records, and the suppressions last: a suppression
 * names an address without making it a person, as in the batched rebuild
 * (which walks the enquiries, subscribers, members and people, never the
 * suppressions), so a part keeps it only for an address something else holds.
 */
async function partitionSources(files: PartFiles, signal?: AbortSignal): Promise<void> {
  signal?.throwIfAborted();
  for await (const enquiry of everyEnquiryOfAddress()) {
    await files.add(enquiry.key, { source: 'enquiry', record: enquiry });
  }
  signal?.throwIfAborted();
  for await (const subscriber of subscribers().find({}).batchSize(READ_BATCH)) {
    const record = subscriber as SubscriberRecord;
    await files.add(record.email, { source: 'subscriber', record });
  }
  signal?.throwIfAborted();
  for await (const member of members().find({}).batchSize(READ_BATCH)) {
    const record = member as MemberRecord;
    await files.add(record.key, { source: 'member', record });
  }
  signal?.throwIfAborted();
  for await (const person of people().find({}).batchSize(READ_BATCH)) {
    await files.add(person._id, { source: 'person', record: person });
  }
  signal?.throwIfAborted();
  for await (const suppression of suppressions().find({}).batchSize(READ_BATCH)) {
    const record = suppression as SuppressionRecord;
    await files.add(record._id, { source: 'suppression', record });
  }
  await files.flushAll();
}

/** One part's addresses: the records of each, and the person stored for it now. */
class PartRecords {
  readonly records = new Map<string, AddressRecords>();
  readonly stored = new Map<string, StoredPerson>();

  private of(key: string): AddressRecords {
    let held = this.records.get(key);
    if (!held) {
      held = { enquiries: [], subscriber: null, members: [], suppression: null };
      this.records.set(key, held);
    }
    return held;
  }

  take(line: PartLine): void {
    switch (line.source) {
      case 'enquiry':
        this.of(line.record.key).enquiries.push(line.record);
        break;
      case 'subscriber':
        this.of(line.record.email).subscriber = line.record;
        break;
      case 'member':
        this.of(line.record.key).members.push(line.record);
        break;
      case 'person':
        this.stored.set(line.record._id, line.record);
        this.of(line.record._id);
        break;
      case 'suppression': {
        const held = this.records.get(line.record._id);
        if (held) held.suppression = line.record;
        break;
      }
    }
  }
}

/** People written per step: a part's new people are not all held at once. */
const WRITE_CHUNK = 1000;

async function rebuildPart(lines: AsyncIterable<PartLine>): Promise<PeopleRefreshCounts> {
  const part = new PartRecords();
  for await (const line of lines) part.take(line);
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

/** The parts' folder of a pass names its process, so a later pass can tell a dead one's apart. */
const PARTS_FOLDER_PREFIX = 'agency-people-rebuild-';
const PARTS_FOLDER_OF_PROCESS = /^agency-people-rebuild-(\d+)-/;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A worker killed during a pass (SIGKILL, out of memory, the host gone)
 * left its parts' folder behind: the parts of every source, as large as
 * the view. Each pass first removes the folders of processes no longer
 * running; a running one's (another worker's pass on this host) stays.
 */
async function removeFoldersOfDeadPasses(folder: string): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const pid = PARTS_FOLDER_OF_PROCESS.exec(name)?.[1];
    if (pid !== undefined && !isRunning(Number(pid))) {
      await rm(join(folder, name), { recursive: true, force: true });
    }
  }
}

/**
 * Rebuilds the people view part by part; `signal` stops it between two
 * sources or two parts. `addressesPerPart` is the tests' to make several
 * parts of a few; `folder` is where the parts' temporary folder goes (the
 * system's temporary folder unless a test names one).
 */
export async function rebuildPeopleInParts(
  signal?: AbortSignal,
  addressesPerPart = ADDRESSES_PER_PART,
  folder = tmpdir(),
): Promise<PeopleRefreshCounts> {
  const parts = await partsNeeded(addressesPerPart);
  await removeFoldersOfDeadPasses(folder);
  const partsFolder = await mkdtemp(join(folder, `${PARTS_FOLDER_PREFIX}${process.pid}-`));
  try {
    const files = new PartFiles(partsFolder, parts);
    await partitionSources(files, signal);
    const counts: PeopleRefreshCounts = { refreshed: 0, removed: 0 };
    for (let part = 0; part < parts; part += 1) {
      signal?.throwIfAborted();
      const done = await rebuildPart(files.linesOf(part));
      counts.refreshed += done.refreshed;
      counts.removed += done.removed;
    }
    return counts;
  } finally {
    await rm(partsFolder, { recursive: true, force: true });
  }
}
