import { Types } from 'mongoose';
import type { ServiceSlug } from '@agency/contracts';
import { uniqueName } from '@agency/platform/testing/file-database';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { consentedEnquiry, validEnquiry } from '../../testing/admin-fixtures';
import {
  createKeptCounts,
  createLogger,
  reconcileStats,
  statsKeys,
  type ContactFacts,
  type KeptCounts,
} from '@agency/platform';
import { ContactModel } from '@agency/platform/testing/contact-models';
import { SubscriberModel } from '@agency/platform/testing/audience-models';
import { dashboardStats, enquiryTrend } from './stats.service';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

const logger = createLogger('test', 'silent');

function keptIn(timeZone: string, prefix = uniqueName('kept')): KeptCounts {
  return createKeptCounts(ctx.redis, { prefix, timeZone, logger });
}

function arrival(iso: string, service: ServiceSlug = 'branding'): ContactFacts {
  return {
    id: new Types.ObjectId().toHexString(),
    firstName: 'Amira',
    lastName: 'Ben Salah',
    email: `${iso}@example.tn`,
    locale: 'ar',
    service,
    status: 'new',
    createdAt: new Date(iso),
    consented: false,
  };
}

async function arrived(kept: KeptCounts, ...isos: string[]): Promise<void> {
  for (const iso of isos) await kept.contactChanges.stored(arrival(iso));
}

const today = async (kept: KeptCounts, timeZone: string, now: string) => {
  const stats = await dashboardStats(kept, timeZone, new Date(now));
  return { today: stats.todayContacts, week: stats.thisWeekContacts, total: stats.totalContacts };
};

describe("days in the agency's time zone", () => {
  it('counts Sunday 23:30 UTC as Monday in Tunis: a new day and a new week', async () => {
    const kept = keptIn('Africa/Tunis');
    await arrived(
      kept,
      '2026-03-01T22:50:00Z', // Sunday 23:50 in Tunis
      '2026-03-01T23:10:00Z', // Monday 00:10
      '2026-03-02T10:00:00Z', // Monday 11:00
    );

    expect(await today(kept, 'Africa/Tunis', '2026-03-01T22:59:00Z')).toEqual({
      today: 1,
      week: 1,
      total: 3,
    });
    expect(await today(kept, 'Africa/Tunis', '2026-03-02T12:00:00Z')).toEqual({
      today: 2,
      week: 2,
      total: 3,
    });
    // The same instants in UTC fall on other days.
    const utc = keptIn('UTC');
    await arrived(utc, '2026-03-01T22:50:00Z', '2026-03-01T23:10:00Z', '2026-03-02T10:00:00Z');
    expect(await today(utc, 'UTC', '2026-03-02T12:00:00Z')).toEqual({
      today: 1,
      week: 1,
      total: 3,
    });
  });

  // Paris moves to summer time on Sunday 29 March 2026 at 02:00 (01:00 UTC).
  const spring = [
    '2026-03-22T22:30:00Z', // Sunday 22 March 23:30 CET: the week before
    '2026-03-22T23:30:00Z', // Monday 23 March 00:30 CET: this week's first day
    '2026-03-29T00:30:00Z', // Sunday 29 March 01:30 CET, before the change
    '2026-03-29T01:30:00Z', // 03:30 CEST, after it
    '2026-03-29T21:59:00Z', // 23:59 CEST, still Sunday
    '2026-03-29T22:00:00Z', // Monday 30 March 00:00 CEST: a new day and week
  ];

  it('keeps days and weeks right across the spring change to summer time', async () => {
    const kept = keptIn('Europe/Paris');
    await arrived(kept, ...spring);

    expect(await today(kept, 'Europe/Paris', '2026-03-29T21:59:30Z')).toEqual({
      today: 3,
      week: 4,
      total: 6,
    });
    expect(await today(kept, 'Europe/Paris', '2026-03-29T22:00:00Z')).toEqual({
      today: 1,
      week: 1,
      total: 6,
    });
    expect(await enquiryTrend(kept, 'Europe/Paris', 3, new Date('2026-03-29T22:30:00Z'))).toEqual({
      timeZone: 'Europe/Paris',
      days: [
        { date: '2026-03-28', count: 0 },
        { date: '2026-03-29', count: 3 },
        { date: '2026-03-30', count: 1 },
      ],
    });
  });

  it('keeps days right across the autumn change, a day of 25 hours', async () => {
    // Paris goes back to winter time on Sunday 25 October 2026 at 03:00 (01:00 UTC).
    const kept = keptIn('Europe/Paris');
    await arrived(
      kept,
      '2026-10-24T22:30:00Z', // Sunday 25 October 00:30 CEST
      '2026-10-25T00:30:00Z', // 02:30 CEST, the first 02:30
      '2026-10-25T01:30:00Z', // 02:30 CET, the second
      '2026-10-25T22:59:00Z', // 23:59 CET, still Sunday
      '2026-10-25T23:00:00Z', // Monday 26 October 00:00 CET
    );

    expect(await today(kept, 'Europe/Paris', '2026-10-25T22:59:30Z')).toEqual({
      today: 4,
      week: 4,
      total: 5,
    });
    expect(await today(kept, 'Europe/Paris', '2026-10-25T23:30:00Z')).toEqual({
      today: 1,
      week: 1,
      total: 5,
    });
  });

  it('recounts the same days from the store as it counted on write', async () => {
    await ContactModel.deleteMany({});
    const prefix = uniqueName('recount');
    const onWrite = keptIn('Europe/Paris');
    await arrived(onWrite, ...spring);
    await ContactModel.insertMany(
      spring.map((iso) => ({
        ...validEnquiry,
        email: `${iso}@example.tn`,
        createdAt: new Date(iso),
      })),
    );

    await reconcileStats({
      redis: ctx.redis,
      prefix,
      timeZone: 'Europe/Paris',
      settleMs: 0,
      logger,
    });
    const recounted = keptIn('Europe/Paris', prefix);
    for (const now of ['2026-03-29T21:59:30Z', '2026-03-29T22:00:00Z']) {
      expect(await today(recounted, 'Europe/Paris', now)).toEqual(
        await today(onWrite, 'Europe/Paris', now),
      );
    }
  });
});

describe('the reconciliation while the API writes', () => {
  it('leaves a figure that moved while the store was read, and repairs it once quiet', async () => {
    await ContactModel.deleteMany({});
    await ContactModel.insertMany([validEnquiry, validEnquiry].map((enquiry) => ({ ...enquiry })));
    const prefix = uniqueName('busy');
    const counts = statsKeys(prefix, 'Africa/Tunis').counts;
    // Both figures are wrong before the pass; one of them also moves during it.
    await ctx.redis.hset(counts, { contacts: 12, campaigns: 7 });
    const pass = (settleMs: number) =>
      reconcileStats({ redis: ctx.redis, prefix, timeZone: 'Africa/Tunis', settleMs, logger });

    const running = pass(2000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await ctx.redis.hincrby(counts, 'contacts', 1); // an enquiry counted meanwhile
    const busy = await running;

    expect(busy.busy).toBeGreaterThanOrEqual(1);
    expect(busy.repaired.counts).toEqual(
      expect.arrayContaining([{ field: 'campaigns', kept: 7, counted: 0 }]),
    );
    expect(busy.repaired.counts.map(({ field }) => field)).not.toContain('contacts');
    expect(await ctx.redis.hget(counts, 'contacts')).toBe('13');

    const quiet = await pass(0);
    expect(quiet.repaired.counts).toEqual(
      expect.arrayContaining([{ field: 'contacts', kept: 13, counted: 2 }]),
    );
    expect(await ctx.redis.hget(counts, 'contacts')).toBe('2');
  });
});

describe('when Redis does not answer', () => {
  it('takes the change without the figures, which the reconciliation then repairs', async () => {
    const gone = await createTestContext({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const kept = createKeptCounts(gone.redis, {
        prefix: uniqueName('gone'),
        timeZone: 'Africa/Tunis',
        logger,
      });
      await expect(kept.contactChanges.stored(arrival('2026-03-02T10:00:00Z'))).resolves.toBe(
        undefined,
      );
      await expect(kept.contactTotals.count({})).resolves.toBeUndefined();
    } finally {
      await gone.close();
    }
  });
});

describe('the per-address figures, recounted in Redis', () => {
  /** More addresses than one chunk of the recount's Redis reads (1,000). */
  const ADDRESSES = 1_200;
  const addressOf = (index: number) => `reader${index}@example.tn`;

  it('repairs every address past one chunk, drops those nothing holds, and leaves no work keys', async () => {
    await ContactModel.deleteMany({});
    await SubscriberModel.deleteMany({});
    await ContactModel.insertMany(
      Array.from({ length: ADDRESSES }, (_, index) => ({
        // Every third one ticked "send me news".
        ...(index % 3 === 0 ? consentedEnquiry : validEnquiry),
        email: addressOf(index),
      })),
    );
    // One address sent two enquiries; one unsubscribed; one only confirmed a subscription.
    await ContactModel.create({ ...consentedEnquiry, email: addressOf(0).toUpperCase() });
    await SubscriberModel.insertMany([
      { email: addressOf(1), status: 'unsubscribed', locale: 'en' },
      { email: 'only.subscribed@example.tn', status: 'confirmed', locale: 'en' },
    ]);
    const prefix = uniqueName('addresses');
    const keys = statsKeys(prefix, 'Africa/Tunis');
    // Kept wrong: a count off, a status for an address no subscriber holds, an address no enquiry sent.
    await ctx.redis.hset(keys.enquiriesPerAddress, addressOf(5), 9, 'gone@example.tn', 1);
    await ctx.redis.hset(keys.subscriberStatus, 'gone@example.tn', 'confirmed');

    const report = await reconcileStats({
      redis: ctx.redis,
      prefix,
      timeZone: 'Africa/Tunis',
      settleMs: 0,
      logger,
    });

    const enquiries = await ctx.redis.hgetall(keys.enquiriesPerAddress);
    expect(Object.keys(enquiries)).toHaveLength(ADDRESSES);
    expect(enquiries[addressOf(0)]).toBe('2');
    expect(enquiries[addressOf(5)]).toBe('1');
    expect(enquiries[addressOf(ADDRESSES - 1)]).toBe('1');
    expect(enquiries['gone@example.tn']).toBeUndefined();
    const consented = await ctx.redis.hgetall(keys.consentedPerAddress);
    expect(Object.keys(consented)).toHaveLength(ADDRESSES / 3);
    expect(consented[addressOf(0)]).toBe('2');
    expect(await ctx.redis.hgetall(keys.subscriberStatus)).toEqual({
      [addressOf(1)]: 'unsubscribed',
      'only.subscribed@example.tn': 'confirmed',
    });
    // Every address entry written, the wrong one corrected, the two strays dropped.
    expect(report.repaired.addresses).toBe(ADDRESSES + ADDRESSES / 3 + 2 + 2);
    expect(report.busy).toBe(0);
    expect(await ctx.redis.hmget(keys.counts, 'audience:contacts', 'audience:all')).toEqual([
      String(ADDRESSES - 1),
      String(ADDRESSES),
    ]);
    expect(
      await ctx.redis.hmget(keys.counts, 'audience:contacts:consented', 'audience:all:consented'),
    ).toEqual([String(ADDRESSES / 3), String(ADDRESSES / 3 + 1)]);
    expect(await ctx.redis.keys(`${prefix}:stats:recount:*`)).toEqual([]);

    const again = await reconcileStats({
      redis: ctx.redis,
      prefix,
      timeZone: 'Africa/Tunis',
      settleMs: 0,
      logger,
    });
    expect(again.repaired.addresses).toBe(0);
  });
});
