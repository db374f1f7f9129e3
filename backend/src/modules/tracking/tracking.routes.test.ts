import { Writable } from 'node:stream';
import { Types } from 'mongoose';
import pino from 'pino';
import request from 'supertest';
import { Queue } from 'bullmq';
import { QUEUE_NAMES, type CampaignEventsJob, type TrackingEventRecord } from '@agency/contracts';
import {
  EARLY_OPEN_RULE,
  createLogger,
  newCampaignTrackingKey,
  recipientKeyOf,
  signClickToken,
  signOpenToken,
  trackingTokenKey,
} from '@agency/platform';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { createApp } from '../../app';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { createTrackingEventBuffer, type TrackingEventBuffer } from './tracking-event-buffer';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const ADDRESS = 'reader@example.com';
const LINKS = ['https://example.com/spring', 'https://example.com/offer?x=1'];
const AN_HOUR_AGO = () => new Date(Date.now() - 3600_000);
const EVENT_FIELDS = [
  'at',
  'campaignId',
  'id',
  'kind',
  'linkIndex',
  'locale',
  'recipientKey',
  'rule',
  'sentAt',
  'source',
  'trap',
  'verdict',
];

/** The public pixel and redirect through the real API, with the real Redis and store. */
describe('the tracking pixel and links', () => {
  let ctx: TestContext;
  let buffer: TrackingEventBuffer;
  let app: ReturnType<typeof createApp>;
  let queue: Queue<CampaignEventsJob>;

  beforeAll(async () => {
    ctx = await createTestContext();
    buffer = createTrackingEventBuffer({
      connection: ctx.redis,
      prefix: ctx.config.queuePrefix,
      logger: createLogger('test', 'silent'),
    });
    app = createApp({ ...ctx, logger: createLogger('test', 'silent'), trackingEvents: buffer });
    queue = new Queue(QUEUE_NAMES.campaignEvents, {
      connection: ctx.redis,
      prefix: ctx.config.queuePrefix,
    });
  });
  afterEach(async () => {
    await buffer.flush();
    await queue.obliterate({ force: true });
  });
  afterAll(async () => {
    await buffer.close();
    await queue.close();
    await ctx.close();
  });

  const tokenKey = () => trackingTokenKey(ctx.config.mailLinkSecret);

  async function sentCampaign(tracking: Record<string, unknown> = {}) {
    const key = newCampaignTrackingKey();
    const campaign = await CampaignModel.create({
      name: `Spring ${new Types.ObjectId().toHexString()}`,
      subject: 'Hello',
      content: '<p>Hi</p>',
      status: 'sent',
      tracking: { mode: 'anonymous', key, links: LINKS, ...tracking },
    });
    return {
      campaignId: String(campaign._id),
      recipientKey: recipientKeyOf(key, ADDRESS),
      locale: 'fr' as const,
      // The recipient's list or source: every event of the mail carries it to the counting.
      source: 2,
    };
  }

  async function openToken(sentAt = AN_HOUR_AGO(), tracking: Record<string, unknown> = {}) {
    const mail = await sentCampaign(tracking);
    return { mail, token: signOpenToken(tokenKey(), { ...mail, sentAt }) };
  }

  async function clickToken(linkIndex: number, tracking: Record<string, unknown> = {}) {
    const mail = await sentCampaign(tracking);
    const sentAt = AN_HOUR_AGO();
    return { mail, sentAt, token: signClickToken(tokenKey(), { ...mail, sentAt, linkIndex }) };
  }

  /** Every job the buffer added so far, once it has handed over what it holds. */
  async function queuedJobs() {
    await buffer.flush();
    return queue.getJobs(['waiting', 'active', 'delayed', 'completed', 'failed']);
  }

  async function queuedEvents(): Promise<TrackingEventRecord[]> {
    return (await queuedJobs()).flatMap((job) => job.data.events);
  }

  const get = (path: string, agent = BROWSER) =>
    request(app.callback()).get(path).set('User-Agent', agent);

  it("answers the pixel and queues one person's open, without the reader's address or agent", async () => {
    const sentAt = new Date(Math.floor(Date.now() / 1000 - 7200) * 1000);
    const { mail, token } = await openToken(sentAt);

    const response = await get(`/api/t/o/${token}`).set('X-Forwarded-For', '203.0.113.9');

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/gif');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(Buffer.from(response.body as Buffer)).toHaveLength(43);
    expect(
      Buffer.from(response.body as Buffer)
        .subarray(0, 6)
        .toString(),
    ).toBe('GIF89a');

    const jobs = await queuedJobs();
    expect(jobs).toHaveLength(1);
    const events = jobs.flatMap((job) => job.data.events);
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^[\w-]{20,}$/),
        kind: 'open',
        campaignId: mail.campaignId,
        recipientKey: mail.recipientKey,
        locale: 'fr',
        source: 2,
        linkIndex: null,
        trap: false,
        at: expect.any(String),
        sentAt: sentAt.toISOString(),
        verdict: 'person',
        rule: null,
      },
    ]);
    expect(Object.keys(events[0] ?? {}).sort()).toEqual(EVENT_FIELDS);
    const stored = JSON.stringify(jobs.map((job) => job.data));
    expect(stored).not.toMatch(/127\.0\.0\.1|::1|203\.0\.113\.9/);
    expect(stored).not.toContain('Mozilla');
  });

  it("takes an open within seconds of sending for a machine's", async () => {
    const { token } = await openToken(new Date());
    expect((await get(`/api/t/o/${token}`)).status).toBe(200);
    expect(await queuedEvents()).toEqual([
      expect.objectContaining({ kind: 'open', verdict: 'machine', rule: EARLY_OPEN_RULE }),
    ]);
  });

  it("redirects a person's click to the link table's target and queues one click", async () => {
    const { mail, token } = await clickToken(1);

    const response = await get(`/api/t/c/${token}`);

    expect(response.status).toBe(302);
    expect(response.headers.location).toBe(LINKS[1]);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(await queuedEvents()).toEqual([
      expect.objectContaining({
        kind: 'click',
        campaignId: mail.campaignId,
        recipientKey: mail.recipientKey,
        source: 2,
        linkIndex: 1,
        trap: false,
        verdict: 'person',
        rule: null,
      }),
    ]);
  });

  it("counts a HEAD request as a scanner's click", async () => {
    const { token } = await clickToken(0);
    const response = await request(app.callback())
      .head(`/api/t/c/${token}`)
      .set('User-Agent', BROWSER);
    expect(response.status).toBe(302);
    expect(await queuedEvents()).toEqual([
      expect.objectContaining({ kind: 'click', verdict: 'scanner', rule: 'head-request' }),
    ]);
  });

  it("answers the trap link with a harmless page and records a scanner's click", async () => {
    const { token } = await clickToken(LINKS.length);

    const response = await get(`/api/t/c/${token}`);

    expect(response.status).toBe(200);
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(await queuedEvents()).toEqual([
      expect.objectContaining({ linkIndex: LINKS.length, trap: true, verdict: 'scanner' }),
    ]);
  });

  async function expectNotFound(path: string) {
    const response = await get(path);
    expect(response.status).toBe(404);
    expect(response.headers.location).toBeUndefined();
    expect(response.headers['x-robots-tag']).toBe('noindex');
    expect(response.text).toContain('Link not found');
    expect(await queuedEvents()).toEqual([]);
  }

  it('answers a forged token with the 404 page, no redirect, nothing recorded', async () => {
    const mail = await sentCampaign();
    const forger = trackingTokenKey('a secret that is not ours, long enough to pass');
    const sentAt = AN_HOUR_AGO();
    await expectNotFound(`/api/t/c/${signClickToken(forger, { ...mail, sentAt, linkIndex: 0 })}`);
    await expectNotFound(`/api/t/o/${signOpenToken(forger, { ...mail, sentAt })}`);
    await expectNotFound('/api/t/c/not-a-token');
  });

  it('never takes a target from an altered token: a changed index is a 404', async () => {
    const { token } = await clickToken(0);
    const bytes = Buffer.from(token, 'base64url');
    // The link index is the two bytes before the MAC.
    bytes[bytes.length - 13] = 1;
    await expectNotFound(`/api/t/c/${bytes.toString('base64url')}`);
  });

  it('answers a genuine token past the link table with the 404 page', async () => {
    const { token } = await clickToken(LINKS.length + 1);
    await expectNotFound(`/api/t/c/${token}`);
  });

  it('never redirects to a stored link that is not a web address', async () => {
    const { token } = await clickToken(0, { links: ['javascript:alert(1)', ...LINKS] });
    await expectNotFound(`/api/t/c/${token}`);
  });

  it('answers the 404 page for a campaign that is gone', async () => {
    const sentAt = AN_HOUR_AGO();
    const gone = {
      campaignId: new Types.ObjectId().toHexString(),
      recipientKey: recipientKeyOf(newCampaignTrackingKey(), ADDRESS),
      locale: 'en' as const,
      source: null,
    };
    await expectNotFound(
      `/api/t/c/${signClickToken(tokenKey(), { ...gone, sentAt, linkIndex: 0 })}`,
    );
    await expectNotFound(`/api/t/o/${signOpenToken(tokenKey(), { ...gone, sentAt })}`);
  });

  it('keeps an old mail working once its key is destroyed, and counts nothing more', async () => {
    const destroyed = { key: null, keyDestroyedAt: new Date() };
    const click = await get(`/api/t/c/${(await clickToken(1, destroyed)).token}`);
    expect(click.status).toBe(302);
    expect(click.headers.location).toBe(LINKS[1]);
    const trap = await get(`/api/t/c/${(await clickToken(LINKS.length, destroyed)).token}`);
    expect(trap.status).toBe(200);
    const open = await get(`/api/t/o/${(await openToken(AN_HOUR_AGO(), destroyed)).token}`);
    expect(open.status).toBe(200);
    expect(open.headers['content-type']).toBe('image/gif');
    expect(await queuedEvents()).toEqual([]);
  });

  it("logs the route of a pixel or a click, never its token or the reader's address", async () => {
    const lines: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    );
    const logged = createApp({ ...ctx, logger, trackingEvents: buffer });
    const { token: open } = await openToken();
    const { token: click } = await clickToken(0);
    await request(logged.callback()).get(`/api/t/o/${open}`).set('X-Forwarded-For', '203.0.113.9');
    await request(logged.callback()).get(`/api/t/c/${click}`);
    await request(logged.callback()).get('/api/health');

    const requests = lines.filter((line) => line.includes('"msg":"request"'));
    expect(requests.join('\n')).toContain('"path":"/api/t/o/:token"');
    expect(requests.join('\n')).toContain('"path":"/api/t/c/:token"');
    expect(requests.join('\n')).not.toContain(open);
    expect(requests.join('\n')).not.toContain(click);
    expect(requests.filter((line) => line.includes('"ip"'))).toEqual([
      expect.stringContaining('/api/health'),
    ]);
  });

  it('hands 1,000 answered requests to Redis as 1,000 events in a few jobs', async () => {
    const { token: open } = await openToken();
    const { token: click } = await clickToken(0);
    const paths = Array.from({ length: 1000 }, (_, index) =>
      index % 2 ? `/api/t/o/${open}` : `/api/t/c/${click}`,
    );
    for (let start = 0; start < paths.length; start += 100) {
      const answers = await Promise.all(paths.slice(start, start + 100).map((path) => get(path)));
      expect(answers.map((answer) => answer.status).filter((status) => status >= 400)).toEqual([]);
    }

    const jobs = await queuedJobs();
    const events = jobs.flatMap((job) => job.data.events);
    expect(events).toHaveLength(1000);
    expect(new Set(events.map((event) => event.id)).size).toBe(1000);
    expect(jobs.length).toBeLessThanOrEqual(20);
    expect(buffer.counters()).toMatchObject({ pending: 0 });
  });
});
