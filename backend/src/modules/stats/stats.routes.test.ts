import request from 'supertest';
import { API_ROUTES } from '@agency/contracts';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, signedInUser, validCampaign, validEnquiry } from '../../testing/admin-fixtures';
import { reconcileNow, recordQueuedSubscriptions } from '../../testing/kept-figures';
import {
  localDay,
  signConfirmationToken,
  signUnsubscribeToken,
  withSearchKeys,
} from '@agency/platform';
import { SubscriberModel } from '@agency/platform/testing/audience-models';
import { ContactModel } from '@agency/platform/testing/contact-models';
import { periodStarts } from './stats.service';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

describe('periodStarts', () => {
  it('starts today and this week (Monday) in the agency time zone, not in UTC', () => {
    // Sunday 23:30 UTC is already Monday 00:30 in Tunis (UTC+1).
    const now = new Date('2026-03-01T23:30:00Z');
    expect(periodStarts('Africa/Tunis', now)).toEqual({
      today: new Date('2026-03-01T23:00:00Z'),
      week: new Date('2026-03-01T23:00:00Z'),
    });
    expect(periodStarts('UTC', now)).toEqual({
      today: new Date('2026-03-01T00:00:00Z'),
      week: new Date('2026-02-23T00:00:00Z'),
    });
  });
});

describe('the dashboard figures', () => {
  const post = (path: string, body: object) =>
    request(ctx.app.callback())
      .post(path)
      .send(body)
      .expect((response) => {
        if (response.status >= 300) throw new Error(`${path} answered ${response.status}`);
      });

  it('follow each change at once, from the kept figures rather than the collections', async () => {
    const admin = await signedInUser(ctx, 'admin');
    const api = as(ctx, admin);
    // With "send me news" ticked: the campaign audience counts only those.
    const enquiry = (email: string, service: string) =>
      post('/api/contact', { ...validEnquiry, email, service, newsletterConsent: true });
    const first = await enquiry('amira@example.tn', 'branding');
    await enquiry('AMIRA@example.tn', 'branding'); // the same address again
    const third = await enquiry('sami@example.tn', 'meta-ads');
    await enquiry('left@example.tn', 'analytics');

    for (const email of ['sami@example.tn', 'nour@example.tn', 'waiting@example.tn']) {
      await post(API_ROUTES.newsletter, { email });
    }
    // The worker records the requests the API queued, and moves the figures.
    await recordQueuedSubscriptions(ctx);
    for (const email of ['sami@example.tn', 'nour@example.tn']) {
      const subscriber = await SubscriberModel.findOne({ email }).lean();
      const token = signConfirmationToken(String(subscriber?._id), ctx.config.mailLinkSecret);
      await post(API_ROUTES.newsletterConfirm, { token });
    }
    await post(API_ROUTES.newsletterUnsubscribe, {
      token: signUnsubscribeToken('left@example.tn', ctx.config.mailLinkSecret),
    });

    expect(
      (await api.patch(`/api/admin/contacts/${third.body.id}`, { status: 'replied' })).status,
    ).toBe(200);
    expect((await api.delete(`/api/admin/contacts/${first.body.id}`)).status).toBe(204);
    const campaign = await api.post('/api/admin/campaigns', validCampaign);
    await api.post('/api/admin/campaigns', validCampaign);
    expect((await api.delete(`/api/admin/campaigns/${campaign.body.id}`)).status).toBe(204);

    const expected = {
      totalContacts: 3,
      todayContacts: 3,
      thisWeekContacts: 3,
      totalSubscribers: 2,
      totalCampaigns: 1,
    };
    // No list is asked for: `lists` is 0.
    const audience = {
      contacts: 2,
      subscribers: 2,
      all: 3,
      lists: 0,
      segments: 0,
      withoutConsent: { contacts: 0, all: 0 },
    };
    const viewer = as(ctx, await signedInUser(ctx, 'viewer'));
    const stats = await viewer.get('/api/admin/stats');
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject(expected);
    // Most first; a tie keeps the services' own order.
    expect(stats.body.contactsByService).toEqual([
      { service: 'meta-ads', count: 1 },
      { service: 'branding', count: 1 },
      { service: 'analytics', count: 1 },
      { service: 'social-media', count: 0 },
      { service: 'web-design', count: 0 },
      { service: 'content-creation', count: 0 },
    ]);
    // amira and sami enquired (left unsubscribed); sami and nour confirmed.
    expect((await viewer.get('/api/admin/campaigns/audience')).body).toEqual(audience);

    // The figures are not read from the collections: emptying them changes nothing...
    await Promise.all([
      ContactModel.deleteMany({}),
      SubscriberModel.deleteMany({}),
      CampaignModel.deleteMany({}),
    ]);
    expect((await viewer.get('/api/admin/stats')).body).toMatchObject(expected);
    // ...until the reconciliation recounts them from the store, and says what it repaired.
    const report = await reconcileNow(ctx);
    expect(report.repaired.counts).toEqual(
      expect.arrayContaining([{ field: 'contacts', kept: 3, counted: 0 }]),
    );
    expect(report.repaired.days).toBe(1);
    expect(report.repaired.dayExamples).toEqual([
      { field: localDay(new Date(), ctx.config.timeZone), kept: 3, counted: 0 },
    ]);
    expect((await viewer.get('/api/admin/stats')).body).toMatchObject({
      totalContacts: 0,
      todayContacts: 0,
      thisWeekContacts: 0,
      totalSubscribers: 0,
      totalCampaigns: 0,
    });
    expect((await viewer.get('/api/admin/campaigns/audience')).body).toEqual({
      contacts: 0,
      subscribers: 0,
      all: 0,
      lists: 0,
      segments: 0,
      withoutConsent: { contacts: 0, all: 0 },
    });
  });
});

describe('while Redis does not answer', () => {
  it('says the figures are unavailable (503), and still lists the enquiries from the store', async () => {
    const gone = await createTestContext({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      await ContactModel.create(withSearchKeys({ ...validEnquiry, createdAt: new Date() }));
      const stored = await ContactModel.countDocuments({});
      const viewer = as(gone, await signedInUser(gone, 'viewer'));
      for (const path of [
        '/api/admin/stats',
        '/api/admin/stats/enquiries',
        '/api/admin/campaigns/audience',
      ]) {
        const refused = await viewer.get(path);
        expect({ path, status: refused.status, code: refused.body.error?.code }).toEqual({
          path,
          status: 503,
          code: 'UNAVAILABLE',
        });
      }
      const list = await viewer.get('/api/admin/contacts');
      expect(list.status).toBe(200);
      expect(list.body).toMatchObject({ total: stored, totalKind: 'exact' });
    } finally {
      await gone.close();
    }
  });
});

describe('GET /api/admin/stats/enquiries', () => {
  it('answers 30 days by default, takes up to 90, and refuses other periods', async () => {
    const viewer = await signedInUser(ctx, 'viewer');
    const get = (query: string) => as(ctx, viewer).get(`/api/admin/stats/enquiries${query}`);

    const standard = await get('');
    expect(standard.status).toBe(200);
    expect(standard.body.days).toHaveLength(30);
    expect(standard.body.timeZone).toBe('Africa/Tunis');
    expect((await get('?days=90')).body.days).toHaveLength(90);

    for (const days of ['0', '91', 'ten', '1.5']) {
      const refused = await get(`?days=${days}`);
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.error.fields as object)).toEqual(['days']);
    }
  });

  it('counts today the enquiries stored through the API', async () => {
    const viewer = as(ctx, await signedInUser(ctx, 'viewer'));
    const today = async () =>
      ((await viewer.get('/api/admin/stats/enquiries?days=2')).body.days as { count: number }[]).at(
        -1,
      )?.count;
    const before = await today();
    await request(ctx.app.callback()).post('/api/contact').send(validEnquiry).expect(201);
    expect(await today()).toBe((before ?? 0) + 1);
  });
});
