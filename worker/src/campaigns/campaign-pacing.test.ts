import { randomBytes } from 'node:crypto';
import type { SendingWindow } from '@agency/contracts';
import type { Redis } from '@agency/platform';
import { connectSharedRedis } from '@agency/platform/testing/shared-redis';
import { campaignPaceKey, takePace, windowClosedUntil } from './campaign-pacing';

const ZONE = 'Africa/Tunis';
/** Wednesday 25 November 2026, 10:00 in Tunis (UTC+1 all year). */
const WEDNESDAY_TEN = new Date('2026-11-25T09:00:00Z');

/**
 * A campaign's own pace and sending window: the window read on the agency's
 * clock, and the pace as a cell rate kept in the shared test Redis, at
 * instants the test sets (the script takes the worker's clock, not Redis').
 */
describe("a campaign's pace and window", () => {
  describe('the sending window', () => {
    const window = (over: Partial<SendingWindow> = {}): { sendingWindow: SendingWindow } => ({
      sendingWindow: { days: [1, 3, 5], start: '08:00', end: '20:00', ...over },
    });

    it('never holds a campaign without one', () => {
      expect(windowClosedUntil({ sendingWindow: null }, ZONE, WEDNESDAY_TEN)).toBeNull();
    });

    it('lets a campaign go inside its hours', () => {
      expect(windowClosedUntil(window(), ZONE, WEDNESDAY_TEN)).toBeNull();
    });

    it('holds it outside them until the next opening on the agency’s clock', () => {
      expect(windowClosedUntil(window({ start: '11:00' }), ZONE, WEDNESDAY_TEN)).toEqual(
        new Date('2026-11-25T10:00:00Z'),
      );
      expect(windowClosedUntil(window({ days: [1] }), ZONE, WEDNESDAY_TEN)).toEqual(
        new Date('2026-11-30T07:00:00Z'),
      );
    });
  });

  describe('the pace', () => {
    let redis: Redis;
    let prefix: string;
    let now: number;
    const campaignId = 'c-9';
    const take = (perMinute: number, want: number) =>
      takePace(redis, prefix, campaignId, perMinute, want);

    beforeAll(async () => {
      redis = await connectSharedRedis('consumer');
    });
    afterAll(() => redis.disconnect());
    beforeEach(() => {
      prefix = `pace-${randomBytes(4).toString('hex')}`;
      now = Date.UTC(2026, 10, 25, 9);
      jest.spyOn(Date, 'now').mockImplementation(() => now);
    });
    afterEach(() => jest.restoreAllMocks());

    it('is kept under one key per campaign, shared by every worker', () => {
      expect(campaignPaceKey('bull', 'c-1')).toBe('bull:campaign:c-1:pace');
    });

    it('grants up to a second’s worth at once, then one mail per interval', async () => {
      // 600 a minute: one mail each 100 ms, ten at once.
      expect(await take(600, 4)).toEqual({ granted: 4, waitMs: 0 });
      expect(await take(600, 10)).toEqual({ granted: 6, waitMs: 0 });
      expect(await take(600, 1)).toEqual({ granted: 0, waitMs: 100 });

      now += 250;
      expect(await take(600, 5)).toEqual({ granted: 2, waitMs: 0 });
      expect(await take(600, 5)).toEqual({ granted: 0, waitMs: 50 });
    });

    it('keeps when the next mail is due, for as long as it matters and a minute more', async () => {
      await take(600, 4);

      const key = campaignPaceKey(prefix, campaignId);
      expect(Number(await redis.get(key))).toBe(now + 400);
      const ttl = await redis.pttl(key);
      expect(ttl).toBeGreaterThan(61_400 - 1000);
      expect(ttl).toBeLessThanOrEqual(61_400);
    });

    it('lets a slow campaign send one mail, then wait a whole interval', async () => {
      // 30 a minute: one mail each 2 s, and never more than one at once.
      expect(await take(30, 3)).toEqual({ granted: 1, waitMs: 0 });
      expect(await take(30, 3)).toEqual({ granted: 0, waitMs: 2000 });

      now += 2000;
      expect(await take(30, 3)).toEqual({ granted: 1, waitMs: 0 });
    });

    it('keeps each campaign to its own pace', async () => {
      expect(await take(60, 1)).toEqual({ granted: 1, waitMs: 0 });
      expect(await takePace(redis, prefix, 'c-10', 60, 1)).toEqual({ granted: 1, waitMs: 0 });
      expect(await take(60, 1)).toEqual({ granted: 0, waitMs: 1000 });
    });
  });
});
