import type { CampaignRecipient } from '@agency/contracts';
import type { Redis } from '..';
import { connectSharedRedis } from '../testing/shared-redis';
import { uniqueName } from '../testing/file-database';
import {
  WALK_PAGE_SIZE,
  WalkKeysLostError,
  firstMetOnly,
  walkKeysInMemory,
  walkKeysInRedis,
  type WalkKeys,
} from './walk-keys';

let redis: Redis;
let key: string;

beforeAll(async () => {
  redis = await connectSharedRedis('consumer');
});
afterAll(() => redis.disconnect());
beforeEach(() => {
  key = uniqueName('walk');
});

const recipient = (address: string): CampaignRecipient => ({
  key: address,
  email: address,
  firstName: '',
  lastName: '',
  locale: 'en',
});

async function* recipientsOf(addresses: readonly string[]): AsyncGenerator<CampaignRecipient> {
  for (const address of addresses) yield recipient(address);
}

async function keysOf(recipients: AsyncIterable<CampaignRecipient>): Promise<string[]> {
  const keys: string[] = [];
  for await (const { key: address } of recipients) keys.push(address);
  return keys;
}

/** Notes the size of every page it is asked about, and answers as the process's memory would. */
function countingPages(): WalkKeys & { pages: number[] } {
  const inMemory = walkKeysInMemory();
  const pages: number[] = [];
  return {
    pages,
    firstMet(keys) {
      pages.push(keys.length);
      return inMemory.firstMet(keys);
    },
  };
}

/** Who a walk of an audience met already: in the process for the API, in Redis for the worker's send. */
describe("a walk's met keys", () => {
  it('yields each recipient the first time it is met, asking a page at a time, never more', async () => {
    const addresses = Array.from(
      { length: WALK_PAGE_SIZE * 2 + 10 },
      (_, index) => `r${index % (WALK_PAGE_SIZE + 3)}@example.tn`,
    );
    const met = countingPages();

    const walked = await keysOf(firstMetOnly(recipientsOf(addresses), met));

    expect(walked).toEqual([...new Set(addresses)]);
    expect(met.pages).toEqual([WALK_PAGE_SIZE, WALK_PAGE_SIZE, 10]);
  });

  it('leaves out the excluded before asking, and asks nothing of an empty walk', async () => {
    const met = countingPages();

    expect(
      await keysOf(
        firstMetOnly(recipientsOf(['a@x.tn', 'b@x.tn', 'a@x.tn']), met, new Set(['b@x.tn'])),
      ),
    ).toEqual(['a@x.tn']);
    expect(met.pages).toEqual([2]);

    const untouched = countingPages();
    expect(await keysOf(firstMetOnly(recipientsOf([]), untouched))).toEqual([]);
    expect(untouched.pages).toEqual([]);
  });

  it('keeps them in a Redis set of its own: a first meeting once, within a page and across pages', async () => {
    const met = walkKeysInRedis(redis, key, 600);

    expect(await met.firstMet(['a@x.tn', 'b@x.tn', 'a@x.tn'])).toEqual([true, true, false]);
    expect(await met.firstMet(['b@x.tn', 'c@x.tn'])).toEqual([false, true]);
    expect(await met.firstMet([])).toEqual([]);
    expect((await redis.smembers(key)).sort()).toEqual(['a@x.tn', 'b@x.tn', 'c@x.tn']);
  });

  it('lets its set outlive the last page only its TTL, and drops it when released', async () => {
    const met = walkKeysInRedis(redis, key, 600);
    await met.firstMet(['a@x.tn']);

    const ttl = await redis.ttl(key);
    expect(ttl).toBeGreaterThan(590);
    expect(ttl).toBeLessThanOrEqual(600);

    await met.release();
    expect(await redis.exists(key)).toBe(0);
  });

  it('throws rather than meeting everyone again once Redis lost its set', async () => {
    const met = walkKeysInRedis(redis, key, 600);
    await met.firstMet(['a@x.tn', 'b@x.tn']);
    await redis.del(key);

    await expect(met.firstMet(['a@x.tn', 'c@x.tn'])).rejects.toThrow(WalkKeysLostError);
  });

  it('is not misled by another walk: each walk has a set of its own', async () => {
    const one = walkKeysInRedis(redis, key, 600);
    const other = walkKeysInRedis(redis, `${key}-other`, 600);
    await one.firstMet(['a@x.tn']);

    expect(await other.firstMet(['a@x.tn'])).toEqual([true]);
    await other.release();
  });
});
