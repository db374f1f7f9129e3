import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { Queue, type QueueEvents, Worker, type Processor } from 'bullmq';
import {
  QUEUE_NAMES,
  type CampaignEventsJob,
  type QueueName,
  type TrackingEventRecord,
} from '@agency/contracts';
import {
  createRedisConnection,
  newCampaignTrackingKey,
  readCampaignReport,
  recipientKeyOf,
  type Redis,
} from '@agency/platform';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import type { ScheduledJob } from '../job-schedulers';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startCampaignEventCounting } from './campaign-events.processor';

const LINKS = ['https://example.com/offer', 'https://example.com/shop', 'https://example.com/blog'];
const SENT = '2026-05-04T10:00:00.000Z';
const after = (seconds: number) => new Date(Date.parse(SENT) + seconds * 1000).toISOString();
const BROWSER_OPEN = { verdict: 'person', rule: null } as const;

/** The worker's event writer fed through a real queue, read back through the report. */
describe('the campaign events processor', () => {
  let ctx: PipelineContext;
  let connection: Redis;
  let queue: Queue<CampaignEventsJob>;
  let events: QueueEvents;
  const counters: ScheduledJob[] = [];

  const startCounting = (keepEveryMs?: number) =>
    startCampaignEventCounting({
      keepEveryMs,
      connection,
      queuePrefix: ctx.config.queuePrefix,
      logger: pino({ level: 'silent' }),
      startWorker: (
        name: QueueName,
        processor: Processor<CampaignEventsJob>,
        concurrency: number,
      ) =>
        new Worker<CampaignEventsJob>(name, processor, {
          connection,
          prefix: ctx.config.queuePrefix,
          concurrency,
        }),
    });

  beforeAll(async () => {
    ctx = await createPipelineContext();
    connection = createRedisConnection(ctx.config.redisUrl, 'consumer');
    queue = new Queue(QUEUE_NAMES.campaignEvents, { connection, prefix: ctx.config.queuePrefix });
    events = await ctx.queueEvents(QUEUE_NAMES.campaignEvents);
    // Two worker processes' writers, as `--scale worker=2` runs them.
    counters.push(await startCounting(), await startCounting(200));
  });
  afterAll(async () => {
    for (const counter of counters) await counter.close();
    await queue.close();
    connection.disconnect();
    await ctx.close();
  });

  async function sentCampaign() {
    const key = newCampaignTrackingKey();
    const campaign = await CampaignModel.create({
      name: `Results ${randomUUID()}`,
      subject: 'Hello',
      content: '<p>Hi</p>',
      status: 'sent',
      sentCount: 40,
      startedAt: new Date(SENT),
      finishedAt: new Date(SENT),
      tracking: { opens: true, clicks: true, mode: 'anonymous', key, links: LINKS },
    });
    const id = String(campaign._id);
    const event = (
      email: string,
      fields: Partial<TrackingEventRecord> & { seconds: number },
    ): TrackingEventRecord => ({
      id: randomUUID(),
      kind: 'open',
      campaignId: id,
      recipientKey: recipientKeyOf(key, email),
      locale: 'en',
      linkIndex: null,
      trap: false,
      at: after(fields.seconds),
      sentAt: SENT,
      ...BROWSER_OPEN,
      ...fields,
    });
    return { id, event };
  }

  const counted = async (batch: TrackingEventRecord[], jobId: string = randomUUID()) => {
    const job = await queue.add(QUEUE_NAMES.campaignEvents, { events: batch }, { jobId });
    return job.waitUntilFinished(events, 20_000);
  };

  it('counts prefetches as machines, bursts and traps as scanners, and implies a clicker’s open', async () => {
    const { id, event } = await sentCampaign();
    const click = (email: string, linkIndex: number, seconds: number, extra = {}) =>
      event(email, { kind: 'click', linkIndex, seconds, ...extra });
    await counted([
      // Apple's proxy fetches the pixel as the mail lands.
      event('mpp@example.com', {
        seconds: 1,
        verdict: 'machine',
        rule: 'apple-privacy-proxy-network',
      }),
      // A gateway follows every link within 2 s, and the trap.
      ...LINKS.map((_, index) => click('scanned@example.com', index, 0.5 + index * 0.5)),
      click('scanned@example.com', LINKS.length, 1.8, {
        trap: true,
        verdict: 'scanner',
        rule: 'trap-link',
      }),
      // A person clicks a link twice without loading images.
      click('reader@example.com', 1, 600),
      click('reader@example.com', 1, 660),
      // A person opens twice.
      event('opener@example.com', { seconds: 900 }),
      event('opener@example.com', { seconds: 5000 }),
    ]);
    const report = await readCampaignReport(id);
    expect(report.opens).toEqual({
      people: { unique: 2, total: 3 },
      machines: { unique: 1, total: 1 },
      implied: 1,
    });
    expect(report.clicks).toEqual({
      people: { unique: 1, total: 2 },
      scanners: { unique: 1, total: 4 },
    });
    expect(report.links.map(({ people, scanners }) => [people.total, scanners.total])).toEqual([
      [0, 1],
      [2, 1],
      [0, 1],
    ]);
    expect(report.rates).toEqual({ open: 5, click: 2.5 });
  });

  it('counts a batch processed twice once', async () => {
    const { id, event } = await sentCampaign();
    const batch = [event('twice@example.com', { seconds: 100 })];
    await counted(batch, 'batch-a');
    // Redelivered under another job (the buffer retried an add it thought lost).
    await counted(batch);
    expect((await readCampaignReport(id)).opens.people).toEqual({ unique: 1, total: 1 });
  });

  it('counts every event of batches about one recipient taken by two workers at once', async () => {
    const { id, event } = await sentCampaign();
    const batches = Array.from({ length: 8 }, (_, index) => [
      event('busy@example.com', { seconds: 100 + index }),
      event(`other${index}@example.com`, { seconds: 100 + index }),
    ]);
    await Promise.all(batches.map((batch) => counted(batch)));
    expect((await readCampaignReport(id)).opens.people).toEqual({ unique: 9, total: 16 });
  });

  it('sets the one-at-a-time limit again when Redis lost it', async () => {
    await queue.removeGlobalConcurrency();
    expect(await queue.getGlobalConcurrency()).toBeNull();
    // The second worker sets it again every 200 ms: within a few seconds on a busy machine.
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (await queue.getGlobalConcurrency()) === null) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await queue.getGlobalConcurrency()).toBe(1);
  });

  it('drops the events of a campaign whose key is destroyed', async () => {
    const { id, event } = await sentCampaign();
    await CampaignModel.updateOne({ _id: id }, { $set: { 'tracking.key': null } });
    const result = await counted([event('late@example.com', { seconds: 100 })]);
    expect(result).toEqual({ counted: 0, repeated: 0, dropped: 1 });
  });
});
