import { randomBytes } from 'node:crypto';
import {
  CAMPAIGN_STATE_TTL_SECONDS,
  campaignRateKey,
  type CampaignRoundKeys,
  type Redis,
} from '@agency/backend/store';
import { connectSharedRedis } from '@agency/backend/testing/shared-redis';
import { isRoundSettled, SendLedger, type RoundState } from './send-ledger';

/** The per-message state of a campaign send, in the shared test Redis under a prefix of its own. */
describe('the send ledger in Redis', () => {
  let redis: Redis;
  let prefix: string;
  let ledger: SendLedger;
  let keys: CampaignRoundKeys;
  const campaignId = 'c-7';

  beforeAll(async () => {
    redis = await connectSharedRedis('consumer');
  });
  afterAll(() => redis.disconnect());
  beforeEach(() => {
    prefix = `ledger-${randomBytes(4).toString('hex')}`;
    ledger = new SendLedger(redis, prefix);
    keys = ledger.keys(campaignId, 1);
  });

  const sent = { state: 'sent', attempts: 1 } as const;
  const refused = (reason: string) => ({ state: 'failed', reason, attempts: 1 }) as const;

  it('keeps each round of a campaign under keys of its own', () => {
    expect(ledger.keys(campaignId, 2)).toEqual({
      outcomes: `${prefix}:campaign:c-7:r2:outcomes`,
      attempts: `${prefix}:campaign:c-7:r2:attempts`,
      recorded: `${prefix}:campaign:c-7:r2:recorded`,
      counts: `${prefix}:campaign:c-7:r2:counts`,
    });
  });

  describe('what a batch finds already settled', () => {
    it('is nothing for no recipients', async () => {
      expect(await ledger.settledOf(keys, [])).toEqual([]);
    });

    it('is each outcome with its attempts, in the order asked, and undefined for the owed', async () => {
      await ledger.startAttempt(keys, 'a@x.tn');
      await ledger.startAttempt(keys, 'a@x.tn');
      await ledger.settle(keys, 'a@x.tn', sent);
      await ledger.startAttempt(keys, 'b@x.tn');
      await ledger.settle(keys, 'b@x.tn', refused('550 5.1.1 <b@x.tn>: no such user | bounced'));
      await ledger.startAttempt(keys, 'c@x.tn');

      expect(await ledger.settledOf(keys, ['b@x.tn', 'c@x.tn', 'a@x.tn'])).toEqual([
        {
          state: 'failed',
          reason: '550 5.1.1 <b@x.tn>: no such user | bounced',
          attempts: 1,
        },
        undefined,
        { state: 'sent', attempts: 2 },
      ]);
    });

    it('counts an outcome without a noted attempt as one attempt', async () => {
      await ledger.settle(keys, 'a@x.tn', sent);
      expect(await ledger.settledOf(keys, ['a@x.tn'])).toEqual([{ state: 'sent', attempts: 1 }]);
    });

    it('keeps the first outcome: a late one never overwrites it', async () => {
      await ledger.settle(keys, 'a@x.tn', sent);
      await ledger.settle(keys, 'a@x.tn', refused('451 try later'));
      await ledger.settleAndStart(keys, { key: 'a@x.tn', outcome: refused('550 gone') }, 'b@x.tn');
      expect(await ledger.settledOf(keys, ['a@x.tn'])).toEqual([{ state: 'sent', attempts: 1 }]);
    });
  });

  describe('attempts', () => {
    it('are counted per recipient before each mail goes out', async () => {
      expect(await ledger.startAttempt(keys, 'a@x.tn')).toBe(1);
      expect(await ledger.startAttempt(keys, 'a@x.tn')).toBe(2);
      expect(await ledger.startAttempt(keys, 'b@x.tn')).toBe(1);
    });

    it("are counted with the previous mail's outcome in one exchange", async () => {
      expect(await ledger.settleAndStart(keys, undefined, 'a@x.tn')).toBe(1);
      expect(await ledger.settledOf(keys, ['a@x.tn'])).toEqual([undefined]);

      expect(await ledger.settleAndStart(keys, { key: 'a@x.tn', outcome: sent }, 'b@x.tn')).toBe(1);
      expect(await ledger.settleAndStart(keys, { key: 'b@x.tn', outcome: sent }, 'b@x.tn')).toBe(2);
      expect(await ledger.settledOf(keys, ['a@x.tn', 'b@x.tn'])).toEqual([
        { state: 'sent', attempts: 1 },
        { state: 'sent', attempts: 2 },
      ]);
    });

    it('passes on a failed exchange rather than answering a count', async () => {
      await redis.set(keys.attempts, 'not a hash');
      await expect(
        ledger.settleAndStart(keys, { key: 'a@x.tn', outcome: sent }, 'b@x.tn'),
      ).rejects.toThrow(/WRONGTYPE/);
    });
  });

  describe("the round's counters", () => {
    it('start at zero, not dispatched', async () => {
      expect(await ledger.state(keys)).toEqual({
        sent: 0,
        failed: 0,
        version: 0,
        total: 0,
        dispatched: false,
      });
    });

    it('count each outcome once, however often a batch records it again', async () => {
      const batch = [
        { key: 'a@x.tn', outcome: sent },
        { key: 'b@x.tn', outcome: refused('550 no such user') },
        { key: 'c@x.tn', outcome: sent },
      ];
      expect(await ledger.record(campaignId, keys, batch)).toEqual({
        sent: 2,
        failed: 1,
        version: 1,
        total: 0,
        dispatched: false,
      });
      // A replay after a crash, with one new outcome.
      const replayed = await ledger.record(campaignId, keys, [
        ...batch,
        { key: 'd@x.tn', outcome: refused('550 mailbox full') },
      ]);
      expect(replayed).toMatchObject({ sent: 2, failed: 2, version: 2 });
      // Nothing new: the version stays, so nobody folds the same counts twice.
      expect(await ledger.record(campaignId, keys, batch)).toMatchObject({
        sent: 2,
        failed: 2,
        version: 2,
      });
    });

    it('sample what settled when, for the rate over the last minute, kept two minutes', async () => {
      await ledger.record(campaignId, keys, [
        { key: 'a@x.tn', outcome: sent },
        { key: 'b@x.tn', outcome: sent },
      ]);
      await ledger.record(campaignId, keys, [{ key: 'a@x.tn', outcome: sent }]);
      const rateKey = campaignRateKey(prefix, campaignId);

      const samples = await redis.zrange(rateKey, 0, -1, 'WITHSCORES');
      expect(samples).toHaveLength(2);
      const [member, score] = samples;
      expect(member).toBe(`${score}:2:1:${keys.counts}`);
      expect(Math.abs(Number(score) - Date.now())).toBeLessThan(5000);
      const ttl = await redis.pttl(rateKey);
      expect(ttl).toBeGreaterThan(100_000);
      expect(ttl).toBeLessThanOrEqual(120_000);
    });

    it('drop the samples older than two minutes', async () => {
      const rateKey = campaignRateKey(prefix, campaignId);
      const old = Date.now() - 121_000;
      const recent = Date.now() - 60_000;
      await redis.zadd(rateKey, old, `${old}:5:1:x`, recent, `${recent}:5:2:x`);
      await ledger.record(campaignId, keys, [{ key: 'a@x.tn', outcome: sent }]);

      const members = await redis.zrange(rateKey, 0, -1);
      expect(members).toHaveLength(2);
      expect(members[0]).toBe(`${recent}:5:2:x`);
    });

    it('hold the final total once every batch is queued', async () => {
      await ledger.record(campaignId, keys, [{ key: 'a@x.tn', outcome: sent }]);
      expect(await ledger.markDispatched(keys, 3)).toEqual({
        sent: 1,
        failed: 0,
        version: 1,
        total: 3,
        dispatched: true,
      });
      expect(await ledger.state(keys)).toMatchObject({ total: 3, dispatched: true });
    });
  });

  describe('a settled round', () => {
    const state = (over: Partial<RoundState>): RoundState => ({
      sent: 0,
      failed: 0,
      version: 1,
      total: 4,
      dispatched: true,
      ...over,
    });

    it('has an outcome for every recipient of a fully dispatched round', () => {
      expect(isRoundSettled(state({ sent: 3, failed: 1 }))).toBe(true);
      expect(isRoundSettled(state({ sent: 4, failed: 1 }))).toBe(true);
      expect(isRoundSettled(state({ sent: 2, failed: 1 }))).toBe(false);
    });

    it('is never one whose dispatch may still add recipients', () => {
      expect(isRoundSettled(state({ sent: 3, failed: 1, dispatched: false }))).toBe(false);
    });

    it('keeps its state a week, then Redis drops it', async () => {
      await ledger.startAttempt(keys, 'a@x.tn');
      await ledger.settle(keys, 'a@x.tn', sent);
      await ledger.record(campaignId, keys, [{ key: 'a@x.tn', outcome: sent }]);
      await ledger.markDispatched(keys, 1);

      await ledger.expire(keys);
      for (const key of Object.values(keys)) {
        const ttl = await redis.ttl(key);
        expect(ttl).toBeGreaterThan(CAMPAIGN_STATE_TTL_SECONDS - 60);
        expect(ttl).toBeLessThanOrEqual(CAMPAIGN_STATE_TTL_SECONDS);
      }
    });
  });

  describe('writes of the campaign document', () => {
    /** The campaign's write lock (backend/src/modules/campaigns/campaign-lock.ts), as another writer holds it. */
    const lockKey = () => `${prefix}:campaign:${campaignId}:lock`;

    it('skips a write the next batch makes anyway while another writer holds the campaign', async () => {
      await redis.set(lockKey(), 'another-writer', 'PX', 5000);
      const write = jest.fn(() => Promise.resolve());
      expect(await ledger.writeIfFree(campaignId, write)).toBeUndefined();
      expect(write).not.toHaveBeenCalled();
    });

    it('waits its turn for a write that must happen', async () => {
      await redis.set(lockKey(), 'another-writer', 'PX', 5000);
      setTimeout(() => void redis.del(lockKey()), 100);
      expect(await ledger.writeInTurn(campaignId, () => Promise.resolve('finished'))).toBe(
        'finished',
      );
    });
  });
});
