import { Queue } from 'bullmq';
import request from 'supertest';
import {
  QUEUE_NAMES,
  type PersonDataExportDto,
  type PrivacyLinkJob,
  type PrivacyLinkPurpose,
} from '@agency/contracts';
import { signManageToken, signPrivacyLinkToken } from '@agency/platform';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';
import {
  ListMemberModel,
  MailingListModel,
  SubscriberModel,
} from '@agency/platform/testing/audience-models';
import { ErasureModel } from '@agency/platform/testing/privacy-models';
import { startOwnRedis, type OwnRedis } from '@agency/platform/testing/own-redis';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { openPrivacyLink, spendPrivacyLink } from './privacy-links.service';

/**
 * A person's own download and erasure through the API: the preference page
 * asks for a link (queued as a mail, the worker's pipeline test follows it
 * to the inbox), and the mailed link's calls refuse anything but a genuine,
 * timely, unused link for their purpose.
 */
let ctx: TestContext;
let erasures: Queue;

beforeAll(async () => {
  ctx = await createTestContext();
  erasures = new Queue(QUEUE_NAMES.personErasure, {
    connection: ctx.redis,
    prefix: ctx.config.queuePrefix,
  });
});
afterAll(async () => {
  await erasures.close();
  await ctx.close();
});
beforeEach(async () => {
  await Promise.all([
    SubscriberModel.deleteMany({}),
    ListMemberModel.deleteMany({}),
    MailingListModel.deleteMany({}),
    ErasureModel.deleteMany({}),
    ctx.privacyLinkQueue.obliterate({ force: true }),
    erasures.obliterate({ force: true }),
  ]);
});

const EMAIL = 'sami@example.tn';
const HOUR_MS = 3600 * 1000;
const api = (context = ctx) => request(context.app.callback());
const manageToken = (email = EMAIL) => signManageToken(email, ctx.config.mailLinkSecret);
const linkToken = (purpose: PrivacyLinkPurpose, at = new Date(), email = EMAIL) =>
  signPrivacyLinkToken(email, purpose, ctx.config.mailLinkSecret, at);
const ask = (body: object, context = ctx) =>
  api(context).post('/api/newsletter/preferences/privacy-link').send(body);
const check = (body: object) => api().post('/api/newsletter/privacy-link/check').send(body);
const download = (token: string) =>
  api().post('/api/newsletter/privacy-link/download').send({ token });
const erase = (token: string) => api().post('/api/newsletter/privacy-link/erasure').send({ token });

/** The last character changed: a signature that no longer matches. */
function tampered(token: string): string {
  return `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
}

async function queuedMails(context = ctx): Promise<PrivacyLinkJob[]> {
  const jobs = await context.privacyLinkQueue.getJobs(['waiting', 'delayed', 'prioritized']);
  return jobs.map((job) => job.data);
}

async function subscriberInNewsWithArabicMail(): Promise<void> {
  await SubscriberModel.create({
    email: EMAIL,
    status: 'confirmed',
    locale: 'ar',
    confirmedAt: new Date(),
  });
  const news = await MailingListModel.create({ name: 'News', public: true });
  await ListMemberModel.create({
    _id: `${String(news._id)}:${EMAIL}`,
    list: String(news._id),
    key: EMAIL,
    email: EMAIL,
    consent: { basis: 'sign-up', at: new Date(), listName: 'News' },
  });
}

describe('asking for a link on the preference page', () => {
  it.each(['download', 'erasure'] as const)(
    'queues one %s link mail to the address, in the language of its mail',
    async (purpose) => {
      await subscriberInNewsWithArabicMail();
      const response = await ask({ token: manageToken(), purpose });
      expect(response.status).toBe(202);
      expect(response.body).toEqual({ status: 'sent', email: EMAIL });
      expect(response.headers['cache-control']).toBe('no-store');
      expect(await queuedMails()).toEqual([
        { requestId: expect.stringMatching(/^[0-9a-f]{24}$/), email: EMAIL, purpose, locale: 'ar' },
      ]);
    },
  );

  it('refuses an unknown purpose with 400 on purpose, and queues nothing', async () => {
    const response = await ask({ token: manageToken(), purpose: 'everything' });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ purpose: expect.any(String) });
    expect(await queuedMails()).toEqual([]);
  });

  it('refuses a tampered manage link with 404, and queues nothing', async () => {
    const response = await ask({ token: tampered(manageToken()), purpose: 'erasure' });
    expect(response.status).toBe(404);
    expect(await queuedMails()).toEqual([]);
  });

  it('refuses a mailed privacy link in place of the manage link', async () => {
    const response = await ask({ token: linkToken('erasure'), purpose: 'erasure' });
    expect(response.status).toBe(404);
    expect(await queuedMails()).toEqual([]);
  });
});

describe('the limits on asking', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({
      env: {
        NEWSLETTER_RATE_LIMIT_MAX: '4',
        NEWSLETTER_ADDRESS_RATE_LIMIT_MAX: '2',
        NEWSLETTER_LINK_RATE_LIMIT_MAX: '3',
      },
    });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('answers 429 past the limit per address, then past the limit per IP', async () => {
    const asking = (email: string) =>
      ask({ token: manageToken(email), purpose: 'download' }, limited);
    const statuses = [];
    for (const email of ['a@example.tn', 'a@example.tn', 'a@example.tn']) {
      statuses.push((await asking(email)).status);
    }
    // Another address from the same IP: its first passes, then the IP's limit holds.
    for (const email of ['b@example.tn', 'b@example.tn']) {
      statuses.push((await asking(email)).status);
    }
    expect(statuses).toEqual([202, 202, 429, 202, 429]);
    expect((await queuedMails(limited)).map((job) => job.email)).toEqual(
      expect.arrayContaining(['a@example.tn', 'a@example.tn', 'b@example.tn']),
    );
    expect(await queuedMails(limited)).toHaveLength(3);
  });

  it('answers 429 past the limit of calls of mailed links per IP', async () => {
    const token = signPrivacyLinkToken(EMAIL, 'download', limited.config.mailLinkSecret);
    const statuses = [];
    for (let call = 0; call < 4; call += 1) {
      const response = await api(limited)
        .post('/api/newsletter/privacy-link/check')
        .send({ token, purpose: 'download' });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});

describe('a mailed link refused', () => {
  it.each([
    ['tampered', 'download', 404, () => tampered(linkToken('download'))],
    ['for the other purpose', 'download', 404, () => linkToken('erasure')],
    ['a manage link', 'download', 404, () => manageToken()],
    ['expired', 'download', 410, () => linkToken('download', new Date(Date.now() - 25 * HOUR_MS))],
    // Only a genuine link is called expired: a forged one is not told apart.
    [
      'tampered and expired',
      'download',
      404,
      () => tampered(linkToken('download', new Date(Date.now() - 25 * HOUR_MS))),
    ],
    ['tampered', 'erasure', 404, () => tampered(linkToken('erasure'))],
    ['for the other purpose', 'erasure', 404, () => linkToken('download')],
    ['expired', 'erasure', 410, () => linkToken('erasure', new Date(Date.now() - 25 * HOUR_MS))],
  ] as const)(
    '%s, for %s: %i on check and use, nothing done',
    async (_, purpose, status, token) => {
      await subscriberInNewsWithArabicMail();
      const checked = await check({ token: token(), purpose });
      expect(checked.status).toBe(status);
      const used = purpose === 'download' ? await download(token()) : await erase(token());
      expect(used.status).toBe(status);
      expect(used.body.error.code).toBe(status === 404 ? 'NOT_FOUND' : 'LINK_EXPIRED');
      expect(used.text).not.toContain(EMAIL);
      expect(await ErasureModel.countDocuments()).toBe(0);
    },
  );

  it('answers a token that is not text with 400 on token', async () => {
    const response = await api()
      .post('/api/newsletter/privacy-link/download')
      .send({ token: { $gt: '' } });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ token: expect.any(String) });
  });
});

describe('the download link', () => {
  it('checks without spending, then gives the person’s records once as a JSON file', async () => {
    await subscriberInNewsWithArabicMail();
    const token = linkToken('download');
    expect((await check({ token, purpose: 'download' })).body).toEqual({
      purpose: 'download',
      email: EMAIL,
    });
    const response = await download(token);
    expect(response.status).toBe(200);
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="my-data-/);
    expect(response.headers['cache-control']).toBe('no-store');
    const data = JSON.parse(response.text) as PersonDataExportDto;
    expect(data).toMatchObject({
      email: EMAIL,
      subscription: { status: 'confirmed', locale: 'ar' },
      listMemberships: [
        expect.objectContaining({ list: expect.objectContaining({ name: 'News' }) }),
      ],
    });

    const again = await download(token);
    expect(again.status).toBe(410);
    expect(again.body.error.message).toMatch(/already used/);
    expect((await check({ token, purpose: 'download' })).status).toBe(410);
  });
});

describe('the erasure link', () => {
  it('starts exactly one erasure however often it is clicked, and logs the digest alone', async () => {
    await subscriberInNewsWithArabicMail();
    const token = linkToken('erasure');
    expect((await check({ token, purpose: 'erasure' })).status).toBe(200);
    const clicks = await Promise.all([erase(token), erase(token), erase(token)]);
    expect(clicks.map((click) => click.status).sort()).toEqual([202, 410, 410]);
    expect(clicks.find((click) => click.status === 202)?.body).toEqual({ status: 'started' });
    expect(await ErasureModel.countDocuments()).toBe(1);
    const jobs = await erasures.getJobs(['waiting']);
    expect(jobs.map((job) => job.data.email)).toEqual([EMAIL]);

    const entries = await ActivityLogModel.find({ action: 'person.erase-self' }).lean();
    const [erasure] = await ErasureModel.find({}).lean();
    expect(entries).toHaveLength(1);
    expect(entries[0]?.target).toEqual({ type: 'person', id: String(erasure?._id) });
    expect(entries[0]?.actor).toBeNull();
    expect(JSON.stringify(await ActivityLogModel.find({}).lean())).not.toContain(EMAIL);
  });
});

describe('a spent link given back', () => {
  it('works again when what it was spent on failed', async () => {
    const keys = {
      redis: ctx.redis,
      prefix: ctx.config.queuePrefix,
      mailLinkSecret: ctx.config.mailLinkSecret,
    };
    const link = await openPrivacyLink(keys, linkToken('download'), 'download');
    await expect(
      spendPrivacyLink(keys, link, () => Promise.reject(new Error('the store did not answer'))),
    ).rejects.toThrow('the store did not answer');
    await expect(spendPrivacyLink(keys, link, () => Promise.resolve('done'))).resolves.toBe('done');
    await expect(
      spendPrivacyLink(keys, link, () => Promise.resolve('twice')),
    ).rejects.toMatchObject({ status: 410 });
  });
});

describe('the erasure link while Redis does not answer', () => {
  let own: OwnRedis;
  let outage: TestContext;

  beforeAll(async () => {
    // A Redis of this test's own, so freezing it harms no other test file.
    own = await startOwnRedis();
    outage = await createTestContext({ redisUrl: own.url });
  });
  afterAll(async () => {
    own.thaw();
    await outage.close();
    await own.close();
  });

  it('answers 503 and spends nothing, so that the link works once Redis is back', async () => {
    await subscriberInNewsWithArabicMail();
    const token = signPrivacyLinkToken(EMAIL, 'erasure', outage.config.mailLinkSecret);
    own.freeze();
    const frozen = await api(outage).post('/api/newsletter/privacy-link/erasure').send({ token });
    own.thaw();
    expect(frozen.status).toBe(503);
    expect(frozen.body.error.code).toBe('UNAVAILABLE');
    const later = await api(outage).post('/api/newsletter/privacy-link/erasure').send({ token });
    expect(later.status).toBe(202);
  }, 20_000);
});
