import { randomUUID } from 'node:crypto';
import type { Redis } from '../redis-connection';
import type { ContactFacts } from './contact-changes';
import { allSetKeys, membersOf, type ContactIndexSets } from './contact-index-sets';

/*
 * The reconciliation's repair of the contacts index (contact-index-sets.ts),
 * in bounded memory whatever the number of enquiries: nothing of the index
 * is held in the process beyond a chunk.
 *
 * When the pass starts, each set is copied in Redis (its "before"); while
 * the store is walked, what each set should hold is written beside it (its
 * "expected"). After the settle, the three are read side by side in order
 * (every member has score 0, so a set's order is its members' byte order)
 * and compared with the live set, a chunk at a time:
 * - expected, missing now: added, unless it was there before (then an
 *   enquiry was deleted meanwhile: left alone);
 * - there now, not expected: removed if it was there before, else left
 *   alone (an enquiry stored meanwhile, after the walk passed it).
 * Repairs behind the reading position do not move it: a lexical range
 * starts after the last member read.
 */

export interface IndexRepairReport {
  added: number;
  removed: number;
  /** Members that changed while the store was read: left for the next pass. */
  busy: number;
}

export interface ContactIndexRepair {
  /** What the index must hold for one stored enquiry, sent to Redis a chunk at a time. */
  expect(contact: ContactFacts): Promise<void>;
  /** After the settle: brings every set to what was expected, then marks the index built. */
  finish(): Promise<IndexRepairReport>;
  /** Drops the working copies; finish does it too, and an abandoned pass's expire. */
  discard(): Promise<void>;
}

/** Members per Redis command and per range read: one huge command would stall Redis. */
const CHUNK = 1000;
/** A pass that died leaves its working copies for this long at most. */
const WORK_TTL_SECONDS = 3600;

interface SetUnderRepair {
  key: string;
  before: string;
  expected: string;
}

async function run(pipeline: ReturnType<Redis['pipeline']>): Promise<void> {
  const replies = (await pipeline.exec()) ?? [];
  const failed = replies.find(([error]) => error);
  if (failed?.[0]) throw failed[0];
}

/** A sorted set read in byte order, a chunk at a time. */
class LexicalReader {
  private chunk: Buffer[] = [];
  private position = 0;
  private exhausted = false;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
  ) {}

  /** The member at the reading position, or undefined once the set is read. */
  async head(): Promise<Buffer | undefined> {
    if (this.position < this.chunk.length) return this.chunk[this.position];
    if (this.exhausted) return undefined;
    const last = this.chunk[this.chunk.length - 1];
    const from = last ? Buffer.concat([Buffer.from('('), last]) : '-';
    this.chunk = await this.redis.zrangeBuffer(this.key, from, '+', 'BYLEX', 'LIMIT', 0, CHUNK);
    this.position = 0;
    this.exhausted = this.chunk.length < CHUNK;
    return this.chunk[0];
  }

  advance(): void {
    this.position += 1;
  }
}

function least(...members: (Buffer | undefined)[]): Buffer | undefined {
  let found: Buffer | undefined;
  for (const member of members) {
    if (member && (!found || Buffer.compare(member, found) < 0)) found = member;
  }
  return found;
}

async function repairSet(redis: Redis, set: SetUnderRepair): Promise<IndexRepairReport> {
  const report: IndexRepairReport = { added: 0, removed: 0, busy: 0 };
  const expected = new LexicalReader(redis, set.expected);
  const before = new LexicalReader(redis, set.before);
  const now = new LexicalReader(redis, set.key);
  let missing: Buffer[] = [];
  let extra: Buffer[] = [];
  const write = async () => {
    const pipeline = redis.pipeline();
    if (missing.length > 0) pipeline.zadd(set.key, ...missing.flatMap((member) => [0, member]));
    if (extra.length > 0) pipeline.zrem(set.key, ...extra);
    report.added += missing.length;
    report.removed += extra.length;
    missing = [];
    extra = [];
    await run(pipeline);
  };
  for (;;) {
    const [wanted, was, is] = [await expected.head(), await before.head(), await now.head()];
    const member = least(wanted, was, is);
    if (!member) break;
    const inExpected = wanted !== undefined && wanted.equals(member);
    const inBefore = was !== undefined && was.equals(member);
    const inNow = is !== undefined && is.equals(member);
    if (inExpected && !inNow) {
      if (inBefore) report.busy += 1;
      else missing.push(member);
    } else if (!inExpected && inNow) {
      if (inBefore) extra.push(member);
      else report.busy += 1;
    }
    if (inExpected) expected.advance();
    if (inBefore) before.advance();
    if (inNow) now.advance();
    if (missing.length + extra.length >= CHUNK) await write();
  }
  await write();
  return report;
}

/**
 * Starts a repair of the contacts index: undefined where the store needs no
 * index (MongoDB). Call it before the store is walked.
 */
export async function beginContactIndexRepair(
  redis: Redis,
  index: Pick<ContactIndexSets, 'keys' | 'enabled'>,
): Promise<ContactIndexRepair | undefined> {
  if (!(await index.enabled())) return undefined;
  const work = index.keys.repairWork(randomUUID());
  const sets: SetUnderRepair[] = allSetKeys(index.keys).map((key, position) => ({
    key,
    before: `${work}:before:${position}`,
    expected: `${work}:expected:${position}`,
  }));
  const expectedKeyOf = new Map(sets.map((set) => [set.key, set.expected]));
  const workKeys = sets.flatMap((set) => [set.before, set.expected]);

  const copies = redis.pipeline();
  for (const set of sets) copies.copy(set.key, set.before).expire(set.before, WORK_TTL_SECONDS);
  await run(copies);

  let pending = new Map<string, (number | string)[]>();
  let pendingCount = 0;
  const flush = async () => {
    if (pendingCount === 0) return;
    const pipeline = redis.pipeline();
    for (const [key, scoredMembers] of pending) {
      pipeline.zadd(key, ...scoredMembers).expire(key, WORK_TTL_SECONDS);
    }
    pending = new Map();
    pendingCount = 0;
    await run(pipeline);
  };
  const discard = async () => {
    await redis.del(...workKeys);
  };

  return {
    async expect(contact) {
      for (const [key, member] of membersOf(contact, index.keys)) {
        const expectedKey = expectedKeyOf.get(key);
        if (!expectedKey) continue;
        const scoredMembers = pending.get(expectedKey) ?? [];
        scoredMembers.push(0, member);
        pending.set(expectedKey, scoredMembers);
        pendingCount += 1;
      }
      if (pendingCount >= CHUNK) await flush();
    },
    async finish() {
      await flush();
      const report: IndexRepairReport = { added: 0, removed: 0, busy: 0 };
      try {
        for (const set of sets) {
          const repaired = await repairSet(redis, set);
          report.added += repaired.added;
          report.removed += repaired.removed;
          report.busy += repaired.busy;
        }
        await redis.set(index.keys.built, new Date().toISOString());
      } finally {
        await discard();
      }
      return report;
    },
    discard,
  };
}
