import type { Logger, Redis } from '..';
import { connectSharedRedis } from '../testing/shared-redis';
import { uniqueName } from '../testing/file-database';
import { setStoreWorkarounds, withStoreWorkarounds } from '../testing/store-workarounds';
import type { ContactFacts } from './contact-changes';
import { beginContactIndexRepair } from './contact-index-repair';
import { allSetKeys, createContactIndexSets, membersOf } from './contact-index-sets';

const silent = { warn: () => undefined } as unknown as Logger;

function enquiry(n: number, overrides: Partial<ContactFacts> = {}): ContactFacts {
  return {
    id: n.toString(16).padStart(24, '0'),
    firstName: `Amira${n}`,
    lastName: 'Ben Salah',
    email: `amira${n}@example.tn`,
    locale: 'fr',
    service: 'web-design',
    status: n % 2 === 0 ? 'new' : 'replied',
    createdAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000),
    consented: false,
    ...overrides,
  };
}

describe('the contacts index repair', () => {
  let redis: Redis;
  let index: ReturnType<typeof createContactIndexSets>;

  beforeAll(async () => {
    redis = await connectSharedRedis('consumer');
  });
  afterAll(() => redis.disconnect());
  withStoreWorkarounds({ contactsIndexInRedis: true });
  beforeEach(() => {
    index = createContactIndexSets(redis, { prefix: uniqueName('index-repair'), logger: silent });
  });

  /** Every set of the index, as sorted member lists. */
  async function stored(): Promise<Record<string, string[]>> {
    const sets: Record<string, string[]> = {};
    for (const key of allSetKeys(index.keys)) {
      const members = await redis.zrange(key, 0, -1);
      if (members.length > 0) sets[key] = members.sort();
    }
    return sets;
  }

  /** What the index must hold for exactly these enquiries. */
  function wanted(contacts: ContactFacts[]): Record<string, string[]> {
    const sets: Record<string, string[]> = {};
    for (const contact of contacts) {
      for (const [key, member] of membersOf(contact, index.keys)) {
        (sets[key] ??= []).push(member);
      }
    }
    for (const members of Object.values(sets)) members.sort();
    return sets;
  }

  const memberCount = (contacts: ContactFacts[]) =>
    Object.values(wanted(contacts)).reduce((sum, members) => sum + members.length, 0);

  async function repairTo(contacts: ContactFacts[]) {
    const repair = await beginContactIndexRepair(redis, index);
    if (!repair) throw new Error('the index is enabled in these tests');
    for (const contact of contacts) await repair.expect(contact);
    return repair.finish();
  }

  const workingKeys = () => redis.keys(`${index.keys.repairWork('*')}*`);

  it('builds an empty index from the stored enquiries, marks it built and leaves no working copy', async () => {
    const contacts = [enquiry(1), enquiry(2), enquiry(3, { service: 'meta-ads' })];

    const report = await repairTo(contacts);

    expect(await stored()).toEqual(wanted(contacts));
    expect(report).toEqual({ added: memberCount(contacts), removed: 0, busy: 0 });
    expect(await redis.get(index.keys.built)).toEqual(expect.any(String));
    expect(await workingKeys()).toEqual([]);
  });

  it('removes the members of enquiries no longer stored and adds the missing, keeping the rest', async () => {
    const [gone, kept, unindexed] = [enquiry(1), enquiry(2), enquiry(3)];
    await index.changes.stored(gone);
    await index.changes.stored(kept);

    const report = await repairTo([kept, unindexed]);

    expect(report).toEqual({
      added: memberCount([unindexed]),
      removed: memberCount([gone]),
      busy: 0,
    });
    expect(await stored()).toEqual(wanted([kept, unindexed]));
  });

  it('leaves alone what changed while the store was read: a deletion and a new enquiry', async () => {
    const [deletedMeanwhile, storedMeanwhile] = [enquiry(1), enquiry(2)];
    await index.changes.stored(deletedMeanwhile);
    const repair = await beginContactIndexRepair(redis, index);
    // The walk read it before the API deleted it, and passed before the new one was stored.
    await repair?.expect(deletedMeanwhile);
    await index.changes.deleted(deletedMeanwhile);
    await index.changes.stored(storedMeanwhile);

    const report = await repair?.finish();

    expect(report).toEqual({
      added: 0,
      removed: 0,
      busy: memberCount([deletedMeanwhile, storedMeanwhile]),
    });
    expect(await stored()).toEqual(wanted([storedMeanwhile]));
  });

  it('repairs sets larger than a chunk exactly, in byte order whatever the script', async () => {
    const names = ['Émile', 'Ωmega', 'زينب', '😀 Smiley', '\uFFFD Garbled', 'Zed'];
    const contacts = Array.from({ length: 1500 }, (_, n) =>
      enquiry(n + 1, { firstName: `${names[n % names.length]} ${n}` }),
    );
    // Indexed: a third missing; and 300 stale enquiries the store no longer holds,
    // whose search terms sort before the emoji in bytes, not in UTF-16.
    for (const contact of contacts.filter((_, n) => n % 3 !== 1)) {
      await index.changes.stored(contact);
    }
    const stale = Array.from({ length: 300 }, (_, n) =>
      enquiry(10_000 + n, { firstName: `\uFFFD Stale ${n}` }),
    );
    for (const contact of stale) await index.changes.stored(contact);

    const report = await repairTo(contacts);

    expect(report).toEqual({
      added: memberCount(contacts.filter((_, n) => n % 3 === 1)),
      removed: memberCount(stale),
      busy: 0,
    });
    expect(await stored()).toEqual(wanted(contacts));
    // Once right, a second pass finds nothing to do.
    expect(await repairTo(contacts)).toEqual({ added: 0, removed: 0, busy: 0 });
  });

  it('is not needed where the store has its own indexes (MongoDB)', async () => {
    setStoreWorkarounds({ contactsIndexInRedis: false });
    expect(await beginContactIndexRepair(redis, index)).toBeUndefined();
  });

  it('drops its working copies when the pass is abandoned', async () => {
    await index.changes.stored(enquiry(1));
    const repair = await beginContactIndexRepair(redis, index);
    await repair?.expect(enquiry(1));
    await repair?.expect(enquiry(2));
    await repair?.finish().catch(() => undefined);
    const second = await beginContactIndexRepair(redis, index);
    for (let n = 1; n <= 1001; n += 1) await second?.expect(enquiry(n));
    expect((await workingKeys()).length).toBeGreaterThan(0);

    await second?.discard();

    expect(await workingKeys()).toEqual([]);
  });
});
