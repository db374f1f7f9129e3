import { randomUUID } from 'node:crypto';
import mongoose from 'mongoose';
import { pino } from 'pino';
import { Worker, type Processor, type QueueEvents } from 'bullmq';
import { QUEUE_NAMES, type QueueName, type TrackingEventRecord } from '@agency/contracts';
import {
  createCampaignEventWriter,
  createRedisConnection,
  newCampaignTrackingKey,
  readCampaignReport,
  recipientKeyOf,
  type Redis,
} from '@agency/platform';
import { CampaignBatchModel, CampaignModel } from '@agency/platform/testing/campaigns-models';
import type { ScheduledJob } from '../job-schedulers';
import { createPipelineContext, type PipelineContext } from '../testing/pipeline-context';
import { startTrackingKeyRetention } from './tracking-key-retention.processor';

const DAY_MS = 86_400_000;

/** Every document of every collection of the test's database, as text. */
async function everyStoredDocument(): Promise<{ collection: string; text: string }[]> {
  const db = mongoose.connection.db;
  if (!db) throw new Error('not connected');
  const found: { collection: string; text: string }[] = [];
  for (const { name } of await db.listCollections().toArray()) {
    for (const doc of await db.collection(name).find({}).toArray()) {
      found.push({ collection: name, text: JSON.stringify(doc) });
    }
  }
  return found;
}

describe('the tracking key retention', () => {
  let ctx: PipelineContext;
  let connection: Redis;
  let events: QueueEvents;
  let retention: ScheduledJob | undefined;
  const writer = createCampaignEventWriter(pino({ level: 'silent' }));

  beforeAll(async () => {
    ctx = await createPipelineContext();
    connection = createRedisConnection(ctx.config.redisUrl, 'consumer');
    events = await ctx.queueEvents(QUEUE_NAMES.trackingKeyRetention);
  });
  afterAll(async () => {
    await retention?.close();
    connection.disconnect();
    await ctx.close();
  });

  /** A campaign sent to `email` that ended `daysAgo` days ago, with one open and one click counted. */
  async function endedCampaign(email: string, mode: 'anonymous' | 'individual', daysAgo: number) {
    const key = newCampaignTrackingKey();
    const ended = new Date(Date.now() - daysAgo * DAY_MS);
    const campaign = await CampaignModel.create({
      name: `Ended ${randomUUID()}`,
      subject: 'Hello',
      content: '<p>Hi</p>',
      status: 'sent',
      sentCount: 1,
      startedAt: ended,
      finishedAt: ended,
      dispatchedRound: 1,
      tracking: { opens: true, clicks: true, mode, key, links: ['https://example.com/'] },
    });
    const id = String(campaign._id);
    await CampaignBatchModel.create({
      _id: `${id}:1:0`,
      campaign: campaign._id,
      round: 1,
      seq: 0,
      createdAt: ended,
      recipients: [{ key: 'k', email, locale: 'en' }],
    });
    const recipientKey = recipientKeyOf(key, email);
    const base = {
      campaignId: id,
      recipientKey,
      locale: 'en',
      trap: false,
      at: new Date(ended.getTime() + 600_000).toISOString(),
      sentAt: ended.toISOString(),
      verdict: 'person',
      rule: null,
    } as const;
    const batch: TrackingEventRecord[] = [
      { ...base, id: randomUUID(), kind: 'open', linkIndex: null },
      { ...base, id: randomUUID(), kind: 'click', linkIndex: 0 },
    ];
    await writer.write(batch, randomUUID());
    return { id, recipientKey };
  }

  it('destroys an anonymous campaign’s key and activity past the retention, keeping its counts', async () => {
    const expired = await endedCampaign('amira@example.com', 'anonymous', 31);
    const recent = await endedCampaign('sami@example.com', 'anonymous', 10);
    const individual = await endedCampaign('leila@example.com', 'individual', 90);

    const passed = new Promise((resolve) => events.once('completed', resolve));
    retention = await startTrackingKeyRetention({
      connection,
      queuePrefix: ctx.config.queuePrefix,
      logger: pino({ level: 'silent' }),
      startWorker: (name: QueueName, processor: Processor<Record<string, never>>, concurrency) =>
        new Worker(name, processor, { connection, prefix: ctx.config.queuePrefix, concurrency }),
    });
    await passed;

    const gone = await CampaignModel.findById(expired.id).lean();
    expect(gone?.tracking?.key).toBeNull();
    expect(gone?.tracking?.keyDestroyedAt).toBeInstanceOf(Date);
    const stored = await everyStoredDocument();
    // The recipient key is nowhere; the address only in the ledger of whom the send mailed.
    expect(stored.filter(({ text }) => text.includes(expired.recipientKey))).toEqual([]);
    expect(
      stored
        .filter(({ text }) => text.includes('amira@example.com'))
        .map(({ collection }) => collection),
    ).toEqual(['campaignbatches']);
    const report = await readCampaignReport(expired.id);
    expect([report.opens.people.unique, report.clicks.people.unique]).toEqual([1, 1]);
    expect(report.tracking.keyDestroyed).toBe(true);

    // Within the retention, and individual mode, keep theirs.
    for (const kept of [recent, individual]) {
      expect((await CampaignModel.findById(kept.id).lean())?.tracking?.key).not.toBeNull();
      expect(stored.some(({ text }) => text.includes(kept.recipientKey))).toBe(true);
    }
  });
});
