import { randomBytes } from 'node:crypto';
import {
  CAMPAIGN_RATE_TTL_SECONDS,
  CAMPAIGN_STATE_TTL_SECONDS,
  campaignRateKey,
  type CampaignRoundKeys,
  type Redis,
} from '@agency/platform';
import { connectSharedRedis } from '@agency/platform/testing/shared-redis';
import { isRoundSettled, RoundTracker, type RoundProgress } from './round-tracker';

/** A campaign round's work in progress, in the shared test Redis under a prefix of its own. */
describe("a round's work in progress in Redis", () => {
  let redis: Redis;
  let prefix: string;
  let tracker: RoundTracker;
  let keys: CampaignRoundKeys;
  const campaignId = 'c-7';

  beforeAll(async () => {
    redis = await connectSharedRedis('consumer');
  });
  afterAll(() => redis.disconnect());
  beforeEach(() => {
    prefix = `tracker-${randomBytes(4).toString('hex')}`;
    tracker = new RoundTracker(redis, prefix);
    keys = tracker.keys(campaignId, 1);
  });

  const sent = { state: 'sent', attempts: 1 } as const;
  const refused = (reason: string, attempts = 1) =>
    ({ state: 'failed', reason, attempts }) as const;
  const wave = (
    answered: Parameters<RoundTracker['wave']>[2],
    size: number,
    candidates: string[],
  ) => tracker.wave(campaignId, keys, answered, size, candidates);

  it('keeps each round of a campaign under keys of its own', () => {
    expect(tracker.keys(campaignId, 2)).toEqual({
      outcomes: `${prefix}:campaign:c-7:r2:outcomes`,
      attempts: `${prefix}:campaign:c-7:r2:attempts`,
      counts: `${prefix}:campaign:c-7:r2:counts`,
    });
  });

  describe('a wave', () => {
    it('picks at most its size among the candidates, in order, each with its first attempt', async () => {
      const first = await wave([], 2, ['a@x.tn', 'b@x.tn', 'c@x.tn']);
      expect(first.picked).toEqual([
        { key: 'a@x.tn', attempts: 1 },
        { key: 'b@x.tn', attempts: 1 },
      ]);
      expect(first.examined).toBe(2);
      expect(first.answered).toEqual([]);
      expect(await redis.hgetall(keys.attempts)).toEqual({ 'a@x.tn': '1', 'b@x.tn': '1' });
    });

    it("writes the last wave's outcomes and notes the next wave's attempts in one exchange", async () => {
      await wave([], 2, ['a@x.tn', 'b@x.tn']);
      const next = await wave(
        [
          { key: 'a@x.tn', outcome: sent },
          { key: 'b@x.tn', outcome: refused('550 5.1.1 <b@x.tn>: no such user | bounced') },
        ],
        2,
        ['c@x.tn'],
      );
      expect(next.picked).toEqual([{ key: 'c@x.tn', attempts: 1 }]);
      expect(next.progress).toEqual({
        sent: 1,
        failed: 1,
        version: 1,
        total: 0,
        dispatched: false,
      });
      expect(await redis.hgetall(keys.outcomes)).toEqual({
        'a@x.tn': 's',
        'b@x.tn': 'f|550 5.1.1 <b@x.tn>: no such user | bounced',
      });
    });

    it('reports who already has an outcome, with their attempts, and mails them no more', async () => {
      await wave([], 3, ['a@x.tn', 'b@x.tn', 'c@x.tn']);
      await wave([{ key: 'b@x.tn', outcome: refused('550 gone') }], 0, []);
      // The batch runs again after a crash: a and c were in flight, b was answered.
      const again = await wave([], 3, ['a@x.tn', 'b@x.tn', 'c@x.tn']);
      expect(again.answered).toEqual([{ key: 'b@x.tn', outcome: refused('550 gone') }]);
      expect(again.picked).toEqual([
        { key: 'a@x.tn', attempts: 2 },
        { key: 'c@x.tn', attempts: 2 },
      ]);
      expect(again.examined).toBe(3);
    });

    it('looks past answered candidates to fill its size, and no further', async () => {
      await wave([{ key: 'a@x.tn', outcome: sent }], 0, []);
      const next = await wave([], 1, ['a@x.tn', 'b@x.tn', 'c@x.tn']);
      expect(next.answered.map(({ key }) => key)).toEqual(['a@x.tn']);
      expect(next.picked).toEqual([{ key: 'b@x.tn', attempts: 1 }]);
      expect(next.examined).toBe(2);
      expect(await redis.hexists(keys.attempts, 'c@x.tn')).toBe(0);
    });

    it('keeps the first outcome: a late one never overwrites it, nor counts', async () => {
      await wave([{ key: 'a@x.tn', outcome: sent }], 0, []);
      const late = await wave([{ key: 'a@x.tn', outcome: refused('451 try later') }], 0, []);
      expect(late.progress).toMatchObject({ sent: 1, failed: 0, version: 1 });
      const again = await wave([], 1, ['a@x.tn']);
      expect(again.answered).toEqual([{ key: 'a@x.tn', outcome: { state: 'sent', attempts: 1 } }]);
    });

    it('counts each outcome once, however often a batch writes it again', async () => {
      const batch = [
        { key: 'a@x.tn', outcome: sent },
        { key: 'b@x.tn', outcome: refused('550 no such user') },
        { key: 'c@x.tn', outcome: sent },
      ];
      expect((await wave(batch, 0, [])).progress).toEqual({
        sent: 2,
        failed: 1,
        version: 1,
        total: 0,
        dispatched: false,
      });
      const replayed = await wave(
        [...batch, { key: 'd@x.tn', outcome: refused('550 mailbox full') }],
        0,
        [],
      );
      expect(replayed.progress).toMatchObject({ sent: 2, failed: 2, version: 2 });
      // Nothing new: the version stays, so nobody folds the same counts twice.
      expect((await wave(batch, 0, [])).progress).toMatchObject({ sent: 2, failed: 2, version: 2 });
    });

    it('counts what settled in this second, for the rate over the last minute, kept two minutes', async () => {
      const before = Math.floor(Date.now() / 1000);
      await wave(
        [
          { key: 'a@x.tn', outcome: sent },
          { key: 'b@x.tn', outcome: sent },
        ],
        0,
        [],
      );
      await wave([{ key: 'a@x.tn', outcome: sent }], 0, []);
      const after = Math.floor(Date.now() / 1000);
      const seconds = Array.from({ length: after - before + 1 }, (_, index) => before + index);
      const counts = await redis.mget(seconds.map((at) => campaignRateKey(prefix, campaignId, at)));
      expect(counts.reduce((sum, count) => sum + Number(count ?? 0), 0)).toBe(2);
      const written = seconds[counts.findIndex((count) => count !== null)] ?? before;
      const ttl = await redis.ttl(campaignRateKey(prefix, campaignId, written));
      expect(ttl).toBeGreaterThan(CAMPAIGN_RATE_TTL_SECONDS - 10);
      expect(ttl).toBeLessThanOrEqual(CAMPAIGN_RATE_TTL_SECONDS);
    });

    it('passes on a failed exchange rather than answering', async () => {
      await redis.set(keys.attempts, 'not a hash');
      await expect(wave([], 1, ['a@x.tn'])).rejects.toThrow(/WRONGTYPE/);
    });
  });

  describe("the round's counters", () => {
    it('start at zero, not dispatched', async () => {
      expect(await tracker.progress(keys)).toEqual({
        sent: 0,
        failed: 0,
        version: 0,
        total: 0,
        dispatched: false,
      });
    });

    it('hold the final total once every batch is queued', async () => {
      await wave([{ key: 'a@x.tn', outcome: sent }], 0, []);
      expect(await tracker.markDispatched(keys, 3)).toEqual({
        sent: 1,
        failed: 0,
        version: 1,
        total: 3,
        dispatched: true,
      });
      expect(await tracker.progress(keys)).toMatchObject({ total: 3, dispatched: true });
    });

    it('are rebuilt from the ledger when Redis lost them, and only then', async () => {
      const ledger = [
        { key: 'a@x.tn', outcome: sent },
        { key: 'b@x.tn', outcome: sent },
        { key: 'c@x.tn', outcome: refused('550 no') },
      ];
      // A batch that was in flight when Redis lost the round answers after it.
      await wave(
        [
          { key: 'b@x.tn', outcome: sent },
          { key: 'd@x.tn', outcome: sent },
        ],
        0,
        [],
      );

      expect(await tracker.rebuild(keys, ledger, 6, 40)).toBe(true);

      // b is counted once, d (not in the ledger yet) too.
      expect(await tracker.progress(keys)).toEqual({
        sent: 3,
        failed: 1,
        version: 40,
        total: 6,
        dispatched: true,
      });
      // Written back, the ledger's outcomes are never counted again.
      const late = await wave(
        [
          { key: 'a@x.tn', outcome: sent },
          { key: 'e@x.tn', outcome: sent },
        ],
        0,
        [],
      );
      expect(late.progress).toMatchObject({ sent: 4, failed: 1, version: 41 });
      expect(isRoundSettled(late.progress)).toBe(false);
      // A round Redis still holds is left alone, its outcomes too.
      expect(await tracker.rebuild(keys, [{ key: 'z@x.tn', outcome: sent }], 0, 99)).toBe(false);
      expect(await tracker.progress(keys)).toMatchObject({ sent: 4, total: 6, version: 41 });
      expect(await redis.hexists(keys.outcomes, 'z@x.tn')).toBe(0);
    });

    it("are left as another worker rebuilt them between this one's check and its recount", async () => {
      await tracker.rebuild(keys, [{ key: 'a@x.tn', outcome: sent }], 3, 5);
      // The other worker's rebuild lands between this one's check and its recount.
      const check = jest.spyOn(redis, 'hexists').mockResolvedValueOnce(0);
      try {
        expect(await tracker.rebuild(keys, [{ key: 'b@x.tn', outcome: sent }], 9, 7)).toBe(false);
      } finally {
        check.mockRestore();
      }
      expect(await tracker.progress(keys)).toEqual({
        sent: 1,
        failed: 0,
        version: 5,
        total: 3,
        dispatched: true,
      });
    });

    it('are rebuilt from a ledger with no outcome yet without writing any back', async () => {
      const exchanges = jest.spyOn(redis, 'pipeline');
      try {
        expect(await tracker.rebuild(keys, [], 5, 3)).toBe(true);
        expect(exchanges).not.toHaveBeenCalled();
      } finally {
        exchanges.mockRestore();
      }
      expect(await tracker.progress(keys)).toEqual({
        sent: 0,
        failed: 0,
        version: 3,
        total: 5,
        dispatched: true,
      });
    });

    it('writes back a large ledger in several exchanges', async () => {
      const ledger = Array.from({ length: 2500 }, (_, index) => ({
        key: `r${index}@x.tn`,
        outcome: sent,
      }));
      const exchanges = jest.spyOn(redis, 'pipeline');
      try {
        expect(await tracker.rebuild(keys, ledger, 2500, 1)).toBe(true);
        // A thousand outcomes per round trip, each written once.
        expect(
          exchanges.mock.results.map(({ value }) => (value as { length: number }).length),
        ).toEqual([1000, 1000, 500]);
      } finally {
        exchanges.mockRestore();
      }
      expect(await tracker.progress(keys)).toMatchObject({ sent: 2500, dispatched: true });
      expect(await redis.hlen(keys.outcomes)).toBe(2500);
    });
  });

  describe('a settled round', () => {
    const progress = (over: Partial<RoundProgress>): RoundProgress => ({
      sent: 0,
      failed: 0,
      version: 1,
      total: 4,
      dispatched: true,
      ...over,
    });

    it('has an outcome for every recipient of a fully dispatched round', () => {
      expect(isRoundSettled(progress({ sent: 3, failed: 1 }))).toBe(true);
      expect(isRoundSettled(progress({ sent: 4, failed: 1 }))).toBe(true);
      expect(isRoundSettled(progress({ sent: 2, failed: 1 }))).toBe(false);
    });

    it('is never one whose dispatch may still add recipients', () => {
      expect(isRoundSettled(progress({ sent: 3, failed: 1, dispatched: false }))).toBe(false);
    });

    it('keeps its state a week, then Redis drops it', async () => {
      await wave([], 1, ['a@x.tn']);
      await wave([{ key: 'a@x.tn', outcome: sent }], 0, []);
      await tracker.markDispatched(keys, 1);

      await tracker.expire(keys);
      for (const key of Object.values(keys)) {
        const ttl = await redis.ttl(key);
        expect(ttl).toBeGreaterThan(CAMPAIGN_STATE_TTL_SECONDS - 60);
        expect(ttl).toBeLessThanOrEqual(CAMPAIGN_STATE_TTL_SECONDS);
      }
    });
  });

  describe('writes of the campaign document', () => {
    /** The campaign's write lock (platform/src/campaigns/campaign-lock.ts), as another writer holds it. */
    const lockKey = () => `${prefix}:campaign:${campaignId}:lock`;

    it('skips a write a later batch makes anyway while another writer holds the campaign', async () => {
      await redis.set(lockKey(), 'another-writer', 'PX', 5000);
      const write = jest.fn(() => Promise.resolve());
      expect(await tracker.writeIfFree(campaignId, write)).toBeUndefined();
      expect(write).not.toHaveBeenCalled();
    });

    it('waits its turn for a write that must happen', async () => {
      await redis.set(lockKey(), 'another-writer', 'PX', 5000);
      setTimeout(() => void redis.del(lockKey()), 100);
      expect(await tracker.writeInTurn(campaignId, () => Promise.resolve('finished'))).toBe(
        'finished',
      );
    });
  });
});
