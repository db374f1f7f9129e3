import type { Logger, Redis } from '..';
import { connectSharedRedis } from '../testing/shared-redis';
import { uniqueName } from '../testing/file-database';
import { ON_AND_OFF, withStoreWorkarounds } from '../testing/store-workarounds';
import type { ContactFacts } from './contact-changes';
import { allSetKeys, createContactIndexSets, orderMember } from './contact-index-sets';

const silent = { warn: () => undefined } as unknown as Logger;

const amira: ContactFacts = {
  id: 'a'.repeat(24),
  firstName: 'Amira',
  lastName: 'Ben Salah',
  email: 'amira@example.tn',
  locale: 'fr',
  service: 'web-design',
  status: 'new',
  createdAt: new Date(Date.UTC(2026, 0, 1)),
  consented: false,
};

/** The contacts index follows each change where its workaround applies, and is left alone elsewhere. */
describe.each(ON_AND_OFF)('the contacts index in Redis, %s', (_, on) => {
  let redis: Redis;
  let index: ReturnType<typeof createContactIndexSets>;

  beforeAll(async () => {
    redis = await connectSharedRedis('consumer');
  });
  afterAll(() => redis.disconnect());
  withStoreWorkarounds({ contactsIndexInRedis: on });
  beforeEach(() => {
    index = createContactIndexSets(redis, { prefix: uniqueName('index-sets'), logger: silent });
  });

  /** Every set of the index that holds anything, with its members. */
  async function stored(): Promise<Record<string, string[]>> {
    const sets: Record<string, string[]> = {};
    for (const key of allSetKeys(index.keys)) {
      const members = await redis.zrange(key, 0, -1);
      if (members.length > 0) sets[key] = members;
    }
    return sets;
  }

  it('says whether it applies', async () => {
    expect(await index.enabled()).toBe(on);
  });

  it('follows an enquiry stored, moved to another status and deleted', async () => {
    const member = orderMember(amira.createdAt.getTime(), amira.id);

    await index.changes.stored(amira);
    expect(await stored()).toEqual(
      on
        ? {
            [index.keys.time]: [member],
            [index.keys.status('new')]: [member],
            [index.keys.service('web-design')]: [member],
            [index.keys.search]: expect.arrayContaining([`amira\0${member}`]),
          }
        : {},
    );

    await index.changes.statusChanged({ ...amira, status: 'replied' }, 'new');
    expect(await redis.zrange(index.keys.status('replied'), 0, -1)).toEqual(on ? [member] : []);
    expect(await redis.zrange(index.keys.status('new'), 0, -1)).toEqual([]);

    await index.changes.deleted({ ...amira, status: 'replied' });
    expect(await stored()).toEqual({});
  });
});
