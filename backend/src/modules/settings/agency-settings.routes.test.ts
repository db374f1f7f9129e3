import { Queue } from 'bullmq';
import mongoose from 'mongoose';
import request from 'supertest';
import { QUEUE_NAMES } from '@agency/contracts';
import {
  AGENCY_SETTINGS_CACHE_MS,
  createLogger,
  readAgencySettings,
  reconcileStats,
  saveRetentionReport,
} from '@agency/platform';
import { ContactModel } from '@agency/platform/testing/contact-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  as,
  oneUserPerRole,
  validCampaign,
  validEnquiry,
  type SignedInUser,
} from '../../testing/admin-fixtures';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';

const ROUTE = '/api/admin/agency-settings';
const ZONE = 'America/Montreal';

let ctx: TestContext;
let users: Record<'admin' | 'manager' | 'editor' | 'viewer', SignedInUser>;
beforeAll(async () => {
  ctx = await createTestContext({
    env: { MAIL_FROM: 'Atlas Agency <news@atlas.test>', AGENCY_TIME_ZONE: 'Europe/Paris' },
  });
  users = await oneUserPerRole(ctx);
});
afterAll(async () => {
  await ctx.close();
});

const languages = {
  en: { agencyName: 'Atlas', header: 'News from Atlas', footer: 'You asked for our news.' },
  fr: {
    agencyName: 'Atlas FR',
    header: "Nouvelles d'Atlas",
    footer: 'Vous avez demandé nos nouvelles.',
  },
  ar: { agencyName: 'أطلس', header: 'أخبار أطلس', footer: 'طلبت أخبارنا.' },
};

function settings(over: Record<string, unknown> = {}) {
  return {
    languages,
    senders: [
      { name: 'Atlas News', address: 'news@atlas.test' },
      { name: 'Atlas Team', address: 'team@atlas.test' },
    ],
    defaultFrom: 'news@atlas.test',
    replyTo: 'hello@atlas.test',
    postalAddress: '12 Rue de Marseille, 1000 Tunis',
    timeZone: ZONE,
    defaultLocale: 'fr',
    ...over,
  };
}

async function save(body: object) {
  return as(ctx, users.admin).put(ROUTE, body);
}

describe('the agency settings before any admin saved them', () => {
  it('answers the environment values, so an existing installation keeps sending as before', async () => {
    const response = await as(ctx, users.viewer).get(ROUTE);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      senders: [{ name: 'Atlas Agency', address: 'news@atlas.test' }],
      defaultFrom: 'news@atlas.test',
      replyTo: 'news@atlas.test',
      timeZone: 'Europe/Paris',
      defaultLocale: 'en',
      postalAddress: '',
      updatedAt: null,
      updatedBy: null,
    });
    expect(response.body.languages.ar.agencyName).toBe('Atlas Agency');
    expect(response.body.languages.fr.footer).toMatch(/Vous recevez cet e-mail/);
    const editor = await as(ctx, users.viewer).get('/api/admin/campaigns/settings');
    expect(editor.body).toMatchObject({ timeZone: 'Europe/Paris', senderName: 'Atlas Agency' });
  });
});

describe('saving the agency settings', () => {
  it('needs a session to read', async () => {
    expect((await as(ctx, null).get(ROUTE)).status).toBe(401);
  });

  it.each(['manager', 'editor', 'viewer'] as const)(
    'lets a %s read them but answers 403 to a change, and changes nothing',
    async (role) => {
      expect((await as(ctx, users[role]).get(ROUTE)).status).toBe(200);
      const before = (await as(ctx, users.admin).get(ROUTE)).body;
      const write = await as(ctx, users[role]).put(ROUTE, settings());
      expect(write.status).toBe(403);
      expect(write.body.error.code).toBe('FORBIDDEN');
      expect((await as(ctx, users.admin).get(ROUTE)).body).toEqual(before);
    },
  );

  it('stores them, answers them and writes who changed what to the activity log', async () => {
    const response = await save(settings());
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ...settings(), updatedBy: users.admin.username });
    expect(Date.parse(response.body.updatedAt as string)).not.toBeNaN();
    expect((await as(ctx, users.viewer).get(ROUTE)).body).toEqual(response.body);

    const [entry] = await ActivityLogModel.find({ action: 'settings.agency' })
      .sort({ time: -1 })
      .limit(1)
      .lean()
      .exec();
    expect(entry).toMatchObject({
      actor: { id: users.admin.id },
      target: { type: 'settings', label: 'agency' },
    });
    expect(entry?.changes).toEqual(
      expect.arrayContaining([
        { field: 'timeZone', before: 'Europe/Paris', after: ZONE },
        { field: 'agencyName.fr', before: 'Atlas Agency', after: 'Atlas FR' },
        { field: 'postalAddress', before: '', after: '12 Rue de Marseille, 1000 Tunis' },
        { field: 'replyTo', before: 'news@atlas.test', after: 'hello@atlas.test' },
      ]),
    );
    // A field left as it was is not listed.
    expect(entry?.changes?.map((change) => change.field)).not.toContain('defaultFrom');
  });

  it('feeds the campaign editor its clock, senders and language at once', async () => {
    await save(settings({ timeZone: 'Asia/Tokyo' }));
    const editor = await as(ctx, users.viewer).get('/api/admin/campaigns/settings');
    expect(editor.body).toMatchObject({
      timeZone: 'Asia/Tokyo',
      senderName: 'Atlas FR',
      defaultFrom: 'news@atlas.test',
      replyTo: 'hello@atlas.test',
      defaultLocale: 'fr',
      senders: settings().senders,
    });
  });

  it('refuses bad input with the field and the reason, and keeps what was stored', async () => {
    await save(settings());
    const stored = (await as(ctx, users.admin).get(ROUTE)).body;
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ timeZone: 'Mars/Olympus' }, 'timeZone', /IANA time zone/],
      [{ timeZone: '+01:00' }, 'timeZone', /IANA time zone/],
      [{ replyTo: 'user.@atlas.test' }, 'replyTo', /valid email/],
      [{ defaultFrom: 'someone@gmail.com' }, 'defaultFrom', /allows/],
      [
        {
          senders: [
            { name: 'A', address: 'a@atlas.test' },
            { name: 'B', address: 'A@atlas.test' },
          ],
          defaultFrom: 'a@atlas.test',
        },
        'senders[1].address',
        /only once/,
      ],
      [{ senders: [] }, 'senders', /required/],
      [{ postalAddress: 'x'.repeat(501) }, 'postalAddress', /at most 500/],
      [
        { languages: { ...languages, ar: { ...languages.ar, footer: 'y'.repeat(1001) } } },
        'languages.ar.footer',
        /at most 1000/,
      ],
      [
        { languages: { ...languages, fr: { agencyName: '' } } },
        'languages.fr.agencyName',
        /required/,
      ],
      [{ defaultLocale: 'de' }, 'defaultLocale', /en, fr, ar/],
      // NoSQL-shaped values are refused as the wrong type, never used as a query.
      [{ timeZone: { $ne: '' } }, 'timeZone', /text/],
      [{ postalAddress: { $gt: '' } }, 'postalAddress', /text/],
      [{ senders: { $exists: true } }, 'senders', /list/],
      [
        { languages: { ...languages, en: { agencyName: { $where: '1' } } } },
        'languages.en.agencyName',
        /text/,
      ],
    ];
    for (const [over, field, reason] of cases) {
      const response = await save(settings(over));
      expect({ field, status: response.status }).toEqual({ field, status: 400 });
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
      expect(response.body.error.fields[field]).toMatch(reason);
    }
    expect((await as(ctx, users.admin).get(ROUTE)).body).toEqual(stored);
  });

  it('refuses a body over the size limit', async () => {
    const response = await save(settings({ postalAddress: 'z'.repeat(40_000) }));
    expect(response.status).toBe(413);
  });
});

describe('the From a campaign chooses', () => {
  beforeAll(async () => {
    await save(settings());
  });

  it('keeps an allowed address, and a Reply-To of its own', async () => {
    const response = await as(ctx, users.manager).post('/api/admin/campaigns', {
      ...validCampaign,
      fromAddress: 'TEAM@atlas.test',
      replyTo: 'sales@atlas.test',
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      fromAddress: 'team@atlas.test',
      replyTo: 'sales@atlas.test',
    });
  });

  it('leaves both empty for the agency defaults', async () => {
    const response = await as(ctx, users.manager).post('/api/admin/campaigns', validCampaign);
    expect(response.body).toMatchObject({ fromAddress: null, replyTo: null });
  });

  it('refuses an address an admin does not allow with 422 on the field, and stores nothing', async () => {
    const before = (await as(ctx, users.manager).get('/api/admin/campaigns')).body.total;
    const response = await as(ctx, users.manager).post('/api/admin/campaigns', {
      ...validCampaign,
      fromAddress: 'ceo@gmail.com',
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({
      code: 'UNPROCESSABLE',
      fields: { fromAddress: 'Choose one of the From addresses an admin allows' },
    });
    expect((await as(ctx, users.manager).get('/api/admin/campaigns')).body.total).toBe(before);
  });
});

describe('another process saving the settings', () => {
  it('is read here within the cache time, without a restart', async () => {
    await save(settings({ timeZone: 'Asia/Tokyo' }));
    expect((await readAgencySettings()).timeZone).toBe('Asia/Tokyo');
    // Another process wrote to the store: this one sees it once its short cache runs out.
    await mongoose.connection
      .collection('agencysettings')
      .updateOne({ _id: 'agency' as never }, { $set: { timeZone: 'Asia/Dubai' } });
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now');
    try {
      clock.mockReturnValue(now + AGENCY_SETTINGS_CACHE_MS + 1);
      expect((await readAgencySettings()).timeZone).toBe('Asia/Dubai');
    } finally {
      clock.mockRestore();
    }
  });
});

describe("the dashboard's days when an admin moves the agency to another zone", () => {
  const recounts = () =>
    new Queue(QUEUE_NAMES.statsReconcile, {
      connection: ctx.redis,
      prefix: ctx.config.queuePrefix,
    });

  it('count on the new clock at once, and the worker is asked to recount the days before', async () => {
    await save(settings({ timeZone: 'Europe/Paris' }));
    const queue = recounts();
    try {
      await queue.drain();
      await request(ctx.app.callback()).post('/api/contact').send(validEnquiry).expect(201);

      // Kiritimati is UTC+14: its days are other days than Paris's most of the time.
      expect((await save(settings({ timeZone: 'Pacific/Kiritimati' }))).status).toBe(200);
      const viewer = as(ctx, users.viewer);
      const trend = await viewer.get('/api/admin/stats/enquiries?days=2');
      expect(trend.body.timeZone).toBe('Pacific/Kiritimati');
      const stats = await viewer.get('/api/admin/stats');
      expect(stats.body.timeZone).toBe('Pacific/Kiritimati');
      expect(await queue.getJobs(['waiting'])).toEqual([
        expect.objectContaining({ name: 'recount-now' }),
      ]);

      // An enquiry from now on is counted on the new clock's today.
      const today = async () =>
        (
          (await viewer.get('/api/admin/stats/enquiries?days=2')).body.days as { count: number }[]
        ).at(-1)?.count ?? 0;
      const before = await today();
      await request(ctx.app.callback()).post('/api/contact').send(validEnquiry).expect(201);
      expect(await today()).toBe(before + 1);

      // The worker's recount puts the enquiries stored before into the new zone's days too.
      await reconcileStats({
        redis: ctx.redis,
        prefix: ctx.config.queuePrefix,
        timeZone: async () => (await readAgencySettings()).timeZone,
        settleMs: 0,
        logger: createLogger('test', 'silent'),
      });
      expect(await today()).toBe(await ContactModel.countDocuments({}));

      // Saving again without moving the zone asks for no recount.
      await queue.drain();
      await save(settings({ timeZone: 'Pacific/Kiritimati', postalAddress: 'Tunis' }));
      expect(await queue.getJobs(['waiting'])).toEqual([]);
    } finally {
      await queue.close();
    }
  });
});

describe('the retention rules in the agency settings', () => {
  it('are off for enquiries and two years for the activity log until an admin sets them', async () => {
    await save(settings());
    expect((await as(ctx, users.viewer).get(ROUTE)).body.retention).toEqual({
      enquiryMonths: null,
      activityMonths: 24,
    });
  });

  it('are stored, logged, and shown with the last pass’s report', async () => {
    await saveRetentionReport(new Date('2026-06-15T03:00:00.000Z'), {
      unconfirmedSignups: 2,
      anonymisedEnquiries: 5,
      activityEntries: 40,
    });
    const response = await save(settings({ retention: { enquiryMonths: 36, activityMonths: 12 } }));
    expect(response.status).toBe(200);
    expect(response.body.retention).toEqual({ enquiryMonths: 36, activityMonths: 12 });
    expect((await readAgencySettings()).retention).toEqual({
      enquiryMonths: 36,
      activityMonths: 12,
    });
    expect((await as(ctx, users.viewer).get(ROUTE)).body.retentionReport).toEqual({
      ranAt: '2026-06-15T03:00:00.000Z',
      unconfirmedSignups: 2,
      anonymisedEnquiries: 5,
      activityEntries: 40,
    });
    const [entry] = await ActivityLogModel.find({ action: 'settings.agency' })
      .sort({ time: -1 })
      .limit(1)
      .lean()
      .exec();
    expect(entry?.changes).toEqual(
      expect.arrayContaining([
        { field: 'retention.enquiryMonths', before: null, after: 36 },
        { field: 'retention.activityMonths', before: 24, after: 12 },
      ]),
    );
  });

  it('refuses wrong types and months out of range with the field, and keeps what was stored', async () => {
    await save(settings({ retention: { enquiryMonths: 48, activityMonths: 6 } }));
    const stored = (await as(ctx, users.admin).get(ROUTE)).body;
    const cases: [unknown, string, RegExp][] = [
      [{ enquiryMonths: 5, activityMonths: 6 }, 'retention.enquiryMonths', /at least 6/],
      [{ enquiryMonths: 121, activityMonths: 6 }, 'retention.enquiryMonths', /at most 120/],
      [{ enquiryMonths: 12.5, activityMonths: 6 }, 'retention.enquiryMonths', /whole number/],
      [{ enquiryMonths: 'soon', activityMonths: 6 }, 'retention.enquiryMonths', /number/],
      [{ enquiryMonths: null, activityMonths: 0 }, 'retention.activityMonths', /at least 1/],
      [{ enquiryMonths: null, activityMonths: 121 }, 'retention.activityMonths', /at most 120/],
      [{ enquiryMonths: null, activityMonths: { $gt: 0 } }, 'retention.activityMonths', /number/],
      ['forever', 'retention', /required/],
    ];
    for (const [retention, field, reason] of cases) {
      const response = await save(settings({ retention }));
      expect({ field, status: response.status }).toEqual({ field, status: 400 });
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
      expect(response.body.error.fields[field]).toMatch(reason);
    }
    expect((await as(ctx, users.admin).get(ROUTE)).body).toEqual(stored);
  });
});
