import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { Queue } from 'bullmq';
import pino from 'pino';
import request from 'supertest';
import { QUEUE_NAMES, type CampaignEventsJob, type TrackingEventRecord } from '@agency/contracts';
import {
  createLogger,
  createRedisConnection,
  newCampaignTrackingKey,
  recipientKeyOf,
  signClickToken,
  trackingTokenKey,
  waitUntilConnected,
  type Logger,
  type Redis,
} from '@agency/platform';
import { uniqueName } from '@agency/platform/testing/file-database';
import { startOwnRedis, type OwnRedis } from '@agency/platform/testing/own-redis';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { createApp } from '../../app';
import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  addEventBatch,
  createCampaignEventsQueue,
  createTrackingEventBuffer,
  type TrackingEventBuffer,
} from './tracking-event-buffer';

const silent = () => createLogger('test', 'silent');

function event(): TrackingEventRecord {
  return {
    id: randomUUID(),
    kind: 'open',
    campaignId: 'a'.repeat(24),
    recipientKey: 'b'.repeat(22),
    locale: 'en',
    linkIndex: null,
    trap: false,
    at: new Date().toISOString(),
    sentAt: new Date().toISOString(),
    verdict: 'person',
    rule: null,
  };
}

/** A logger whose warnings and errors the test reads back. */
function capturingLogger(): { logger: Logger; errors: string[]; warnings: string[] } {
  const errors: string[] = [];
  const warnings: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const line = JSON.parse(chunk.toString()) as { level: number; msg: string };
      (line.level >= 50 ? errors : warnings).push(line.msg);
      done();
    },
  });
  return { logger: pino({ level: 'warn' }, stream), errors, warnings };
}

async function queuedEvents(queue: Queue<CampaignEventsJob>): Promise<TrackingEventRecord[]> {
  const jobs = await queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed']);
  return jobs.flatMap((job) => job.data.events);
}

describe('the campaign event buffer on the shared Redis', () => {
  let redis: Redis;
  let prefix: string;
  let queue: Queue<CampaignEventsJob>;

  beforeAll(async () => {
    redis = createRedisConnection(process.env.REDIS_URL ?? '', 'producer');
    await waitUntilConnected(redis, 5000);
  });
  beforeEach(() => {
    prefix = uniqueName('test');
    queue = createCampaignEventsQueue(redis, prefix);
  });
  afterEach(async () => {
    await queue.obliterate({ force: true });
    await queue.close();
  });
  afterAll(() => redis.disconnect());

  it('makes one job of a batch added twice (a retried add after a timeout)', async () => {
    const batch = { id: randomUUID(), events: [event(), event()] };
    await addEventBatch(queue, batch, 2000);
    await addEventBatch(queue, batch, 2000);
    expect(await queue.getJobCountByTypes('waiting', 'completed', 'failed')).toBe(1);
    expect(await queuedEvents(queue)).toHaveLength(2);
  });

  it('hands what it holds to Redis when closed, before its timer would', async () => {
    const buffer = createTrackingEventBuffer({
      connection: redis,
      prefix,
      logger: silent(),
      flushIntervalMs: 60_000,
    });
    const held = [event(), event(), event()];
    held.forEach((one) => buffer.add(one));
    await buffer.close();
    expect((await queuedEvents(queue)).map(({ id }) => id).sort()).toEqual(
      held.map(({ id }) => id).sort(),
    );
  });

  it('refuses events past its bound, counts them and logs the first refusal once', async () => {
    const { logger, errors } = capturingLogger();
    const buffer = createTrackingEventBuffer({
      connection: redis,
      prefix,
      logger,
      flushIntervalMs: 60_000,
      maxPending: 3,
    });
    const taken = Array.from({ length: 5 }, () => buffer.add(event()));
    expect(taken).toEqual([true, true, true, false, false]);
    expect(buffer.counters()).toMatchObject({ accepted: 3, refused: 2, pending: 3 });
    expect(errors).toEqual([expect.stringContaining('campaign event buffer full')]);
    await buffer.close();
  });
});

describe('the campaign event buffer while Redis is away', () => {
  let own: OwnRedis;
  let redis: Redis;
  let queue: Queue<CampaignEventsJob>;
  const prefix = uniqueName('test');

  beforeAll(async () => {
    own = await startOwnRedis();
    redis = createRedisConnection(own.url, 'producer', { commandTimeoutMs: 500 });
    redis.on('error', () => undefined);
    await waitUntilConnected(redis, 5000);
    queue = createCampaignEventsQueue(redis, prefix);
  });
  afterAll(async () => {
    await queue.close();
    redis.disconnect();
    await own.close();
  });

  it('keeps a batch whose add failed and adds it once Redis is back', async () => {
    const buffer = createTrackingEventBuffer({
      connection: redis,
      prefix,
      logger: silent(),
      flushIntervalMs: 20,
      retryDelayMs: { first: 50, max: 200 },
    });
    await own.stop();
    const held = [event(), event()];
    held.forEach((one) => buffer.add(one));
    await buffer.flush(500);
    expect(buffer.counters()).toMatchObject({ accepted: 2, flushed: 0, pending: 2 });

    await own.start();
    await buffer.flush(10_000);
    expect(buffer.counters()).toMatchObject({ flushed: 2, pending: 0 });
    expect((await queuedEvents(queue)).map(({ id }) => id).sort()).toEqual(
      held.map(({ id }) => id).sort(),
    );
    await buffer.close();
  });
});

describe('the tracking links while Redis is paused mid-burst', () => {
  let own: OwnRedis;
  let ctx: TestContext;
  let buffer: TrackingEventBuffer;
  let server: Server;
  const log = capturingLogger();

  beforeAll(async () => {
    own = await startOwnRedis();
    ctx = await createTestContext({ redisUrl: own.url });
    buffer = createTrackingEventBuffer({
      connection: ctx.redis,
      prefix: ctx.config.queuePrefix,
      logger: log.logger,
    });
    // One server for the whole burst: supertest would start one per request.
    server = createServer(
      createApp({ ...ctx, logger: silent(), trackingEvents: buffer }).callback(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await buffer.close();
    await ctx.close();
    await own.close();
  });

  it('answers every click within a second and queues every event once Redis is back', async () => {
    const key = newCampaignTrackingKey();
    const links = ['https://example.com/spring'];
    const campaign = await CampaignModel.create({
      name: 'Paused',
      subject: 'Hello',
      content: '<p>Hi</p>',
      tracking: { mode: 'anonymous', key, links },
    });
    const token = signClickToken(trackingTokenKey(ctx.config.mailLinkSecret), {
      campaignId: String(campaign._id),
      recipientKey: recipientKeyOf(key, 'reader@example.com'),
      locale: 'en',
      source: 0,
      sentAt: new Date(Date.now() - 3600_000),
      linkIndex: 0,
    });
    const click = async () => {
      const started = Date.now();
      const response = await request(server).get(`/api/t/c/${token}`);
      expect(response.headers.location).toBe(links[0]);
      return Date.now() - started;
    };

    const admin = createRedisConnection(own.url, 'consumer');
    const latencies: number[] = [];
    const pauseAtRound = 5;
    for (let round = 0; round < 40; round += 1) {
      // Every command of every client waits for 3 s: a Redis that stalls.
      if (round === pauseAtRound) await admin.call('CLIENT', 'PAUSE', '3000', 'ALL');
      latencies.push(...(await Promise.all(Array.from({ length: 25 }, click))));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    admin.disconnect();

    expect(Math.max(...latencies)).toBeLessThan(1000);
    await buffer.flush(15_000);
    // An add did stall, and was tried again with the same batch.
    expect(log.warnings).toContain('campaign events not handed to Redis yet; kept and retried');
    const queue = new Queue<CampaignEventsJob>(QUEUE_NAMES.campaignEvents, {
      connection: ctx.redis,
      prefix: ctx.config.queuePrefix,
    });
    const events = await queuedEvents(queue);
    await queue.close();
    expect(events).toHaveLength(latencies.length);
    expect(new Set(events.map(({ id }) => id)).size).toBe(latencies.length);
    expect(buffer.counters()).toMatchObject({ accepted: 1000, flushed: 1000, pending: 0 });
  }, 30_000);
});
