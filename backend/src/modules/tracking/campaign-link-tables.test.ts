import Koa from 'koa';
import request from 'supertest';
import { Types } from 'mongoose';
import type { TrackingEventRecord } from '@agency/contracts';
import {
  findCampaignTrackingTable,
  newCampaignTrackingKey,
  recipientKeyOf,
  signClickToken,
  signOpenToken,
  trackingTokenKey,
} from '@agency/platform';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { createCampaignLinkTables, type CampaignLinkTables } from './campaign-link-tables';
import { trackingRoutes } from './tracking.routes';
import type { TrackingEventBuffer } from './tracking-event-buffer';

/** The campaigns' link tables kept in the process, over the real store. */
describe("the tracking routes' link tables", () => {
  let ctx: TestContext;
  let reads: string[];
  const countedRead = (id: string) => {
    reads.push(id);
    return findCampaignTrackingTable(id);
  };

  beforeAll(async () => {
    ctx = await createTestContext();
  });
  beforeEach(() => {
    reads = [];
  });
  afterAll(() => ctx.close());

  async function sentCampaignId(): Promise<string> {
    const campaign = await CampaignModel.create({
      name: `Kept ${new Types.ObjectId().toHexString()}`,
      subject: 'Hello',
      content: '<p>Hi</p>',
      tracking: { key: newCampaignTrackingKey(), links: ['https://example.com/a'] },
    });
    return String(campaign._id);
  }

  it('reads a campaign once for many clicks, even those that arrive together', async () => {
    const tables = createCampaignLinkTables({ read: countedRead });
    const id = await sentCampaignId();
    const together = await Promise.all(Array.from({ length: 20 }, () => tables.get(id)));
    expect(together.every((table) => table?.links[0] === 'https://example.com/a')).toBe(true);
    await tables.get(id);
    expect(reads).toEqual([id]);
  });

  it('reads a campaign again once its entry expired, and sees its key destroyed', async () => {
    const tables = createCampaignLinkTables({ read: countedRead, ttlMs: 50 });
    const id = await sentCampaignId();
    expect(await tables.get(id)).toMatchObject({ hasKey: true });
    await CampaignModel.updateOne(
      { _id: id },
      { 'tracking.key': null, 'tracking.keyDestroyedAt': new Date() },
    );
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(await tables.get(id)).toMatchObject({ hasKey: false });
    expect(reads).toEqual([id, id]);
  });

  it('keeps that a campaign is gone, and gives up a read that takes too long', async () => {
    const tables = createCampaignLinkTables({ read: countedRead });
    const gone = new Types.ObjectId().toHexString();
    expect(await tables.get(gone)).toBeNull();
    expect(await tables.get(gone)).toBeNull();
    expect(reads).toEqual([gone]);

    const stuck = createCampaignLinkTables({
      read: () => new Promise(() => undefined),
      readTimeoutMs: 50,
    });
    await expect(stuck.get(gone)).rejects.toThrow(/timed out/);
  });
});

describe('the tracking routes while the store cannot be read', () => {
  const secret = 'a mail link secret of at least thirty-two characters';
  const held: TrackingEventRecord[] = [];
  const events: TrackingEventBuffer = {
    add: (event) => held.push(event) > 0,
    flush: async () => undefined,
    close: async () => undefined,
    counters: () => ({ accepted: held.length, flushed: 0, pending: 0, refused: 0, batches: 0 }),
  };
  const unreadable: CampaignLinkTables = {
    get: () => Promise.reject(new Error('the store is down')),
  };
  const app = new Koa();
  app.use(trackingRoutes({ mailLinkSecret: secret, events, linkTables: unreadable }).routes());
  const key = newCampaignTrackingKey();
  const mail = {
    campaignId: new Types.ObjectId().toHexString(),
    recipientKey: recipientKeyOf(key, 'reader@example.com'),
    locale: 'en' as const,
    source: 0,
    sentAt: new Date(Date.now() - 3600_000),
  };

  beforeEach(() => {
    held.length = 0;
  });

  it('still answers the pixel and records the open: its token is ours', async () => {
    const token = signOpenToken(trackingTokenKey(secret), mail);
    const response = await request(app.callback()).get(`/api/t/o/${token}`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/gif');
    expect(held).toEqual([expect.objectContaining({ kind: 'open', campaignId: mail.campaignId })]);
  });

  it('answers a click with a page asking to try again, no redirect, nothing recorded', async () => {
    const token = signClickToken(trackingTokenKey(secret), { ...mail, linkIndex: 0 });
    const response = await request(app.callback()).get(`/api/t/c/${token}`);
    expect(response.status).toBe(503);
    expect(response.headers.location).toBeUndefined();
    expect(response.text).toContain('try again');
    expect(held).toEqual([]);
  });
});
