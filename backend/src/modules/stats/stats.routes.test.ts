import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, signedInUser, validCampaign, validEnquiry } from '../../testing/admin-fixtures';
import { ContactModel, SubscriberModel, CampaignModel } from '@agency/platform';
import { dashboardStats, enquiryTrend, periodStarts } from './stats.service';

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

describe('GET /api/admin/stats', () => {
  it('counts contacts, today and this week in Tunis, confirmed subscribers, campaigns and services', async () => {
    const now = new Date('2026-03-04T10:00:00Z'); // Wednesday
    const at = (iso: string) => new Date(iso);
    await ContactModel.insertMany([
      { ...validEnquiry, service: 'branding', createdAt: at('2026-03-03T23:30:00Z') }, // today in Tunis
      { ...validEnquiry, service: 'branding', createdAt: at('2026-03-03T22:30:00Z') }, // yesterday in Tunis
      { ...validEnquiry, service: 'meta-ads', createdAt: at('2026-03-01T23:10:00Z') }, // Monday in Tunis
      { ...validEnquiry, service: 'meta-ads', createdAt: at('2026-03-01T22:50:00Z') }, // Sunday in Tunis
    ]);
    await SubscriberModel.create([
      { email: 'a@x.tn', status: 'confirmed' },
      { email: 'b@x.tn', status: 'pending' },
    ]);
    await CampaignModel.create([validCampaign, validCampaign]);

    const stats = await dashboardStats('Africa/Tunis', now);
    expect(stats).toEqual({
      totalContacts: 4,
      todayContacts: 1,
      thisWeekContacts: 3,
      totalSubscribers: 1,
      totalCampaigns: 2,
      contactsByService: [
        { service: 'meta-ads', count: 2 },
        { service: 'branding', count: 2 },
        { service: 'social-media', count: 0 },
        { service: 'web-design', count: 0 },
        { service: 'content-creation', count: 0 },
        { service: 'analytics', count: 0 },
      ],
      timeZone: 'Africa/Tunis',
    });

    const viewer = await signedInUser(ctx, 'viewer');
    const response = await as(ctx, viewer).get('/api/admin/stats');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      totalContacts: 4,
      totalSubscribers: 1,
      totalCampaigns: 2,
    });
  });
});

describe('GET /api/admin/stats/enquiries', () => {
  it('counts enquiries per local day in Tunis over the period, empty days included', async () => {
    const now = new Date('2026-05-10T09:00:00Z'); // Sunday 10:00 in Tunis
    await ContactModel.deleteMany({});
    await ContactModel.insertMany([
      { ...validEnquiry, createdAt: new Date('2026-05-09T23:30:00Z') }, // 10 May in Tunis
      { ...validEnquiry, createdAt: new Date('2026-05-10T08:00:00Z') }, // 10 May
      { ...validEnquiry, createdAt: new Date('2026-05-09T22:30:00Z') }, // 9 May
      { ...validEnquiry, createdAt: new Date('2026-05-08T12:00:00Z') }, // 8 May
      { ...validEnquiry, createdAt: new Date('2026-05-07T22:59:00Z') }, // 7 May: before the period
    ]);

    const trend = await enquiryTrend('Africa/Tunis', 3, now);

    expect(trend).toEqual({
      timeZone: 'Africa/Tunis',
      days: [
        { date: '2026-05-08', count: 1 },
        { date: '2026-05-09', count: 1 },
        { date: '2026-05-10', count: 2 },
      ],
    });
  });

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
});
