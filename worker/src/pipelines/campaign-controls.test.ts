import { campaignControls, type CampaignControls } from '@agency/backend';
import {
  CAMPAIGN_STATE_TTL_SECONDS,
  campaignRoundKeys,
  readCampaignProgress,
} from '@agency/platform';
import { createCampaignContext, type CampaignContext } from '../testing/campaign-context';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';

// Whole sends on real services: more than the mutation run's 10 s default.
jest.setTimeout(60_000);

let ctx: CampaignContext;
let smtp: SmtpSink;

beforeEach(async () => {
  smtp = await startSmtpSink();
  ctx = await createCampaignContext();
  await ctx.seedContacts(
    Array.from({ length: 300 }, (_, index) => ({ email: `r${index}@example.tn` })),
  );
});
afterEach(async () => {
  await ctx.close();
  await smtp.close();
});

const controls = (): CampaignControls =>
  campaignControls({ queue: ctx.controlQueue, redis: ctx.redis, prefix: ctx.queuePrefix });

const delivered = () => smtp.received.flatMap((entry) => entry.envelopeTo);

// Slow enough to act half-way: 10 recipients a batch, 10 batches a second at most.
const SLOW = { batchSize: 10, concurrency: 2, ratePerSecond: 100 };

describe('pause, resume and cancel', () => {
  it('stops sending on pause and, on resume, sends the rest without anyone twice', async () => {
    await ctx.startWorker(smtp.url, SLOW);
    const id = await ctx.queueCampaign({ recipientType: 'contacts' });
    await smtp.waitForCount(30);
    await controls().pause(id);
    await ctx.waitUntilIdle();
    const atPause = delivered().length;
    expect(atPause).toBeLessThan(300);
    expect((await ctx.campaign(id)).status).toBe('paused');

    await controls().resume(id);
    await ctx.waitForStatus(id, ['sent']);
    expect(delivered()).toHaveLength(300);
    expect(new Set(delivered()).size).toBe(300);
    expect(await ctx.campaign(id)).toMatchObject({ sentCount: 300, total: 300, pass: 2 });
  });

  it('reads Sending, with the whole total and a moving count, as soon as the worker takes a resumed campaign up', async () => {
    await ctx.startWorker(smtp.url, SLOW);
    const id = await ctx.queueCampaign({ recipientType: 'contacts' });
    await smtp.waitForCount(30);
    await controls().pause(id);
    await ctx.waitUntilIdle();
    const atPause = (await ctx.campaign(id)).sentCount as number;

    expect((await controls().resume(id)).status).toBe('queued');
    await smtp.waitForCount(atPause + 20);
    // What the dashboard polls, while the resumed pass is under way.
    const progress = () => readCampaignProgress(ctx.redis, ctx.queuePrefix, id, 'UTC');
    let reading = await progress();
    for (const until = Date.now() + 5000; reading.sentCount <= atPause && Date.now() < until;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      reading = await progress();
    }
    expect(reading).toMatchObject({ status: 'sending', total: 300 });
    expect(reading.sentCount).toBeGreaterThan(atPause);
    expect(reading.ratePerSecond).toBeGreaterThan(0);
    await ctx.waitForStatus(id, ['sent']);
  });

  it('sends nothing more once cancelled, and stays cancelled', async () => {
    await ctx.startWorker(smtp.url, SLOW);
    const id = await ctx.queueCampaign({ recipientType: 'contacts' });
    await smtp.waitForCount(30);
    await controls().cancel(id);
    await ctx.waitUntilIdle();
    const atCancel = delivered().length;
    expect(atCancel).toBeLessThan(300);
    expect(new Set(delivered()).size).toBe(atCancel);
    const campaign = await ctx.campaign(id);
    expect(campaign.status).toBe('cancelled');
    expect(campaign.sentCount).toBeLessThanOrEqual(atCancel);
  });

  it("gives a cancelled round's state in Redis the lifetime of a finished one", async () => {
    await ctx.startWorker(smtp.url, SLOW);
    const id = await ctx.queueCampaign({ recipientType: 'contacts' });
    await smtp.waitForCount(30);
    const keys = campaignRoundKeys(ctx.queuePrefix, id, 1);
    // Kept for good while the round may still go on (a paused one resumes).
    expect(await ctx.redis.ttl(keys.outcomes)).toBe(-1);

    await controls().cancel(id);
    await ctx.waitUntilIdle();

    for (const key of Object.values(keys)) {
      const ttl = await ctx.redis.ttl(key);
      expect(ttl).toBeGreaterThan(CAMPAIGN_STATE_TTL_SECONDS - 60);
      expect(ttl).toBeLessThanOrEqual(CAMPAIGN_STATE_TTL_SECONDS);
    }
  });
});

describe('a campaign left queued without its dispatch', () => {
  it('is dispatched by the recovery pass and sent', async () => {
    const id = await ctx.queueCampaign({ recipientType: 'contacts', addDispatch: false });
    await ctx.startWorker(smtp.url, { recoveryIntervalMs: 200, stalledAfterMs: 0, batchSize: 100 });
    await ctx.waitForStatus(id, ['sent']);
    expect(new Set(delivered()).size).toBe(300);
    expect(delivered()).toHaveLength(300);
  });
});
