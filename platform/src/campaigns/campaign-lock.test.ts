import type { Redis } from '..';
import { connectSharedRedis } from '../testing/shared-redis';
import { uniqueName } from '../testing/file-database';
import { ON_AND_OFF, withStoreWorkarounds } from '../testing/store-workarounds';
import { CampaignBusyError, campaignLockKey, withCampaignLock, withCampaignLockOrThrow } from '..';

let redis: Redis;
let prefix: string;
const campaignId = 'c-42';

beforeAll(async () => {
  redis = await connectSharedRedis('consumer');
});
afterAll(() => redis.disconnect());
beforeEach(() => {
  prefix = uniqueName('lock');
});
afterEach(() => jest.restoreAllMocks());

/** Holds the lock as another writer would, under a token of its own. */
const holdAsAnotherWriter = (token = 'another-writer') =>
  redis.set(campaignLockKey(prefix, campaignId), token, 'PX', 5000, 'NX');

/** Writers of one campaign document take turns through a lock in the shared Redis. */
describe('the campaign write lock', () => {
  withStoreWorkarounds({ campaignLock: true });

  it("is one key per campaign, under the queues' prefix", () => {
    expect(campaignLockKey('bull', 'c-1')).toBe('bull:campaign:c-1:lock');
  });

  it('runs the write holding the lock for at most five seconds, answers its result and frees the lock', async () => {
    const key = campaignLockKey(prefix, campaignId);
    let heldFor = 0;
    const result = await withCampaignLock(redis, prefix, campaignId, 0, async () => {
      expect(await redis.get(key)).toEqual(expect.any(String));
      heldFor = await redis.pttl(key);
      return 'written';
    });

    expect(result).toBe('written');
    expect(heldFor).toBeGreaterThan(4000);
    expect(heldFor).toBeLessThanOrEqual(5000);
    expect(await redis.exists(key)).toBe(0);
  });

  it('frees the lock when the write fails, and passes the failure on', async () => {
    await expect(
      withCampaignLock(redis, prefix, campaignId, 0, () => Promise.reject(new Error('store down'))),
    ).rejects.toThrow('store down');
    expect(await redis.exists(campaignLockKey(prefix, campaignId))).toBe(0);
  });

  it('gives up at once without writing while another writer holds it, when told not to wait', async () => {
    await holdAsAnotherWriter();
    const write = jest.fn(() => Promise.resolve('written'));

    expect(await withCampaignLock(redis, prefix, campaignId, 0, write)).toBeUndefined();
    expect(write).not.toHaveBeenCalled();
    // The other writer's lock is left alone.
    expect(await redis.get(campaignLockKey(prefix, campaignId))).toBe('another-writer');
  });

  it('tries once, not again within the same millisecond, when told not to wait', async () => {
    await holdAsAnotherWriter();
    const frozen = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(frozen);
    const tries = jest.spyOn(redis, 'set');

    expect(await withCampaignLock(redis, prefix, campaignId, 0, () => Promise.resolve(1))).toBe(
      undefined,
    );
    expect(tries).toHaveBeenCalledTimes(1);
  });

  it('waits its turn while the other writer finishes within the wait', async () => {
    await holdAsAnotherWriter();
    setTimeout(() => void redis.del(campaignLockKey(prefix, campaignId)), 100);
    const started = Date.now();

    const result = await withCampaignLock(redis, prefix, campaignId, 3000, () =>
      Promise.resolve('written after the other'),
    );
    expect(result).toBe('written after the other');
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('gives up once the wait runs out', async () => {
    await holdAsAnotherWriter();
    const started = Date.now();
    const write = jest.fn(() => Promise.resolve('written'));

    expect(await withCampaignLock(redis, prefix, campaignId, 200, write)).toBeUndefined();
    expect(write).not.toHaveBeenCalled();
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it('never frees a lock another writer took after its own expired', async () => {
    const key = campaignLockKey(prefix, campaignId);
    await withCampaignLock(redis, prefix, campaignId, 0, async () => {
      // Our lock expired mid-write and another writer took the campaign.
      await redis.set(key, 'next-writer', 'PX', 5000);
    });
    expect(await redis.get(key)).toBe('next-writer');
  });

  describe('for a write that must happen', () => {
    it('answers the write’s result when the lock is free', async () => {
      expect(
        await withCampaignLockOrThrow(redis, prefix, campaignId, 0, () => Promise.resolve(7)),
      ).toBe(7);
    });

    it('answers a write whose result is empty, rather than calling the campaign busy', async () => {
      expect(
        await withCampaignLockOrThrow(redis, prefix, campaignId, 0, () =>
          Promise.resolve(undefined),
        ),
      ).toBeUndefined();
    });

    it('throws CampaignBusyError naming the campaign when the wait runs out', async () => {
      await holdAsAnotherWriter();
      const attempt = withCampaignLockOrThrow(redis, prefix, campaignId, 50, () =>
        Promise.resolve(7),
      );
      await expect(attempt).rejects.toBeInstanceOf(CampaignBusyError);
      await expect(attempt).rejects.toThrow('campaign c-42 is being written; try again');
    });
  });
});

/** What the lock's callers count on whether it is taken or not. */
describe.each(ON_AND_OFF)('the campaign write lock, %s', (_, on) => {
  withStoreWorkarounds({ campaignLock: on });

  it('answers the write’s result, and the result of a write that must happen', async () => {
    expect(await withCampaignLock(redis, prefix, campaignId, 0, () => Promise.resolve(3))).toBe(3);
    expect(
      await withCampaignLockOrThrow(redis, prefix, campaignId, 0, () => Promise.resolve(7)),
    ).toBe(7);
  });

  it('passes a failed write on and leaves no lock behind', async () => {
    await expect(
      withCampaignLock(redis, prefix, campaignId, 0, () => Promise.reject(new Error('store down'))),
    ).rejects.toThrow('store down');
    expect(await redis.exists(campaignLockKey(prefix, campaignId))).toBe(0);
  });
});

/** Off (a test's choice only: every store takes it by default), writers do not take turns. */
describe('the campaign write lock, off', () => {
  withStoreWorkarounds({ campaignLock: false });

  it('writes at once while another writer holds the lock, and leaves that lock alone', async () => {
    await holdAsAnotherWriter();
    const tries = jest.spyOn(redis, 'set');

    expect(await withCampaignLock(redis, prefix, campaignId, 0, () => Promise.resolve('now'))).toBe(
      'now',
    );
    expect(
      await withCampaignLockOrThrow(redis, prefix, campaignId, 0, () => Promise.resolve('too')),
    ).toBe('too');
    expect(tries).not.toHaveBeenCalled();
    expect(await redis.get(campaignLockKey(prefix, campaignId))).toBe('another-writer');
  });
});
