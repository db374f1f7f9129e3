import { campaignScheduleJobId } from '@agency/contracts';
import { suppressAddress } from '@agency/platform';
import {
  ListMemberModel,
  MailingListModel,
  SubscriberModel,
  SuppressionModel,
} from '@agency/platform/testing/audience-models';
import { ContactModel } from '@agency/platform/testing/contact-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  as,
  consentedEnquiry,
  signedInUser,
  validCampaign,
  validEnquiry,
  type SignedInUser,
} from '../../testing/admin-fixtures';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';

let ctx: TestContext;
let manager: SignedInUser;
beforeAll(async () => {
  ctx = await createTestContext();
  manager = await signedInUser(ctx, 'manager');
});
afterAll(async () => {
  await ctx.close();
});
const api = () => as(ctx, manager);

const ARABIC = {
  locale: 'ar',
  subject: 'مرحبا {{firstName}}',
  content: '<p>عزيزي {{firstName}}</p><script>alert(1)</script>',
};

describe('a campaign in several languages, with its window and rate', () => {
  it('stores each language sanitised, the window in order and the rate', async () => {
    const response = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      defaultLocale: 'fr',
      translations: [ARABIC],
      sendingWindow: { days: [5, 1, 3, 1], start: '08:00', end: '20:00' },
      ratePerMinute: 120,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      defaultLocale: 'fr',
      translations: [
        { locale: 'ar', subject: 'مرحبا {{firstName}}', content: '<p>عزيزي {{firstName}}</p>' },
      ],
      sendingWindow: { days: [1, 3, 5], start: '08:00', end: '20:00' },
      ratePerMinute: 120,
      templateId: null,
      scheduledAt: null,
    });
  });

  it('refuses an unknown variable with its name, a window with no hours and a language twice', async () => {
    const unknown = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      subject: 'Hi {{firstName}}',
      content: '<p>Hello {{ firstname }}</p>',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields.content).toBe(
      'Unknown variable "firstname": use one of firstName, lastName, email, unsubscribeUrl, senderName',
    );

    const noHours = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      sendingWindow: { days: [1], start: '20:00', end: '08:00' },
    });
    expect(noHours.status).toBe(400);
    expect(noHours.body.error.fields['sendingWindow.end']).toBe(
      'The window has no hours: its end must come after its start',
    );
    const noDays = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      sendingWindow: { days: [], start: '08:00', end: '20:00' },
    });
    expect(noDays.status).toBe(400);
    expect(noDays.body.error.fields['sendingWindow.days']).toBe('Pick at least one day');

    const twice = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      defaultLocale: 'ar',
      translations: [ARABIC],
    });
    expect(twice.status).toBe(400);
    expect(twice.body.error.fields.translations).toBe('Each language may appear only once');
    expect(await CampaignModel.countDocuments({ defaultLocale: 'ar' })).toBe(0);
  });
});

describe('scheduling', () => {
  it('refuses a time in the past with the reason and keeps the draft', async () => {
    const { id } = (await api().post('/api/admin/campaigns', validCampaign)).body as { id: string };
    const past = await api().post(`/api/admin/campaigns/${id}/schedule`, {
      scheduledAt: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(past.status).toBe(400);
    expect(past.body.error.fields.scheduledAt).toBe('The time must be in the future');
    const garbage = await api().post(`/api/admin/campaigns/${id}/schedule`, {
      scheduledAt: 'tomorrow',
    });
    expect(garbage.body.error.fields.scheduledAt).toBe('Must be a valid date and time');
    expect((await CampaignModel.findById(id).lean())?.status).toBe('draft');
  });

  it.each([
    // Date.parse rolls the day that does not exist over to 2 March.
    ['2030-02-30T09:00:00.000Z', 'Must be a valid date and time'],
    ['2031-02-29T09:00:00Z', 'Must be a valid date and time'],
    ['2030-04-31T09:00:00+01:00', 'Must be a valid date and time'],
    ['2030-13-01T09:00:00Z', 'Must be a valid date and time'],
    // The last instant JavaScript's Date can hold.
    ['+275760-09-13T00:00:00.000Z', 'Must be a valid date and time'],
    ['2101-01-01T00:00:00.000Z', 'The year must be between 2000 and 2100'],
    ['9999-12-31T23:59:00Z', 'The year must be between 2000 and 2100'],
    // Without an offset the same text names another instant on another machine.
    ['2030-03-02T09:00:00', 'Must be a valid date and time'],
    ['2030-03-02', 'Must be a valid date and time'],
  ])('refuses %s with the field and the reason, keeping the draft', async (scheduledAt, reason) => {
    const { id } = (await api().post('/api/admin/campaigns', validCampaign)).body as { id: string };
    const response = await api().post(`/api/admin/campaigns/${id}/schedule`, { scheduledAt });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toEqual({ scheduledAt: reason });
    expect(await CampaignModel.findById(id).lean()).toMatchObject({
      status: 'draft',
      scheduledAt: null,
    });
  });

  it('takes a leap day and the last day of 2100, written with an offset', async () => {
    for (const scheduledAt of ['2096-02-29T09:00:00+01:00', '2100-12-31T23:59:00.000Z']) {
      const { id } = (await api().post('/api/admin/campaigns', validCampaign)).body as {
        id: string;
      };
      const response = await api().post(`/api/admin/campaigns/${id}/schedule`, { scheduledAt });
      expect(response.status).toBe(200);
      expect(response.body.campaign.scheduledAt).toBe(new Date(scheduledAt).toISOString());
    }
  });

  it('schedules, moves and unschedules a draft, keeping one delayed job for its time', async () => {
    const { id } = (await api().post('/api/admin/campaigns', validCampaign)).body as { id: string };
    const first = new Date(Date.now() + 3_600_000);
    const scheduled = await api().post(`/api/admin/campaigns/${id}/schedule`, {
      scheduledAt: first.toISOString(),
    });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body.campaign).toMatchObject({
      status: 'scheduled',
      scheduledAt: first.toISOString(),
    });
    const job = await ctx.campaignQueue.schedule.getJob(campaignScheduleJobId(id, first));
    expect(job?.data).toEqual({ campaignId: id, scheduledAt: first.toISOString() });
    expect(await job?.isDelayed()).toBe(true);

    // A scheduled campaign is not edited: it goes as it was when scheduled.
    expect((await api().put(`/api/admin/campaigns/${id}`, validCampaign)).status).toBe(409);

    const later = new Date(first.getTime() + 3_600_000);
    const moved = await api().post(`/api/admin/campaigns/${id}/schedule`, {
      scheduledAt: later.toISOString(),
    });
    expect(moved.body.campaign.scheduledAt).toBe(later.toISOString());
    expect(await ctx.campaignQueue.schedule.getJob(campaignScheduleJobId(id, first))).toBeFalsy();
    expect(await ctx.campaignQueue.schedule.getJob(campaignScheduleJobId(id, later))).toBeTruthy();

    const back = await api().post(`/api/admin/campaigns/${id}/unschedule`);
    expect(back.status).toBe(200);
    expect(back.body.campaign).toMatchObject({ status: 'draft', scheduledAt: null });
    expect(await ctx.campaignQueue.schedule.getJob(campaignScheduleJobId(id, later))).toBeFalsy();
    expect((await api().post(`/api/admin/campaigns/${id}/unschedule`)).status).toBe(409);
  });

  it('lets a viewer schedule nothing', async () => {
    const viewer = await signedInUser(ctx, 'viewer');
    const { id } = (await api().post('/api/admin/campaigns', validCampaign)).body as { id: string };
    const response = await as(ctx, viewer).post(`/api/admin/campaigns/${id}/schedule`, {
      scheduledAt: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(response.status).toBe(403);
  });
});

describe('preview and language audience', () => {
  it('renders a language for a recipient with the code that sends it, Arabic right to left', async () => {
    const response = await api().post('/api/admin/campaigns/preview', {
      subject: 'مرحبا {{firstName}}',
      content: '<h2>عروض</h2><p>عزيزي {{firstName}} {{lastName}}</p><script>alert(1)</script>',
      locale: 'ar',
      recipient: { email: 'layla@example.tn', firstName: 'Layla', lastName: 'Ben Ali' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ subject: 'مرحبا Layla', locale: 'ar', dir: 'rtl' });
    expect(response.body.html).toContain('<html lang="ar" dir="rtl">');
    expect(response.body.html).toContain('عزيزي Layla Ben Ali');
    expect(response.body.html).not.toContain('<script');
    expect(response.body.html).toContain('token=preview');
    expect(response.body.text).toContain('عزيزي Layla Ben Ali');
  });

  it('shows the manage link beside the unsubscribe link, in the language, with an inert token', async () => {
    const response = await api().post('/api/admin/campaigns/preview', {
      subject: 'Bonjour',
      content: '<p>Printemps</p>',
      locale: 'fr',
      recipient: { email: 'claire@example.fr', firstName: 'Claire', lastName: '' },
    });
    expect(response.status).toBe(200);
    const manage = /\/fr\/newsletter\/preferences\?token=preview&lang=fr/;
    expect(response.body.html.replace(/&amp;/g, '&')).toMatch(
      new RegExp(
        `unsubscribe\\?token=preview&lang=fr">Se désabonner</a> · <a href="[^"]*${manage.source}">Gérer votre abonnement</a>`,
      ),
    );
    expect(response.body.text).toMatch(new RegExp(`Gérer votre abonnement: \\S*${manage.source}`));
  });

  it('counts how many of the audience get each language', async () => {
    await ContactModel.deleteMany({});
    await SubscriberModel.deleteMany({});
    await ContactModel.insertMany([
      { ...consentedEnquiry, email: 'anna@example.com', locale: 'en' },
      { ...consentedEnquiry, email: 'layla@example.tn', locale: 'ar' },
      { ...consentedEnquiry, email: 'claire@example.fr', locale: 'fr' },
      // Without consent: not in the audience, so in no language's count.
      { ...validEnquiry, email: 'silent@example.tn', locale: 'ar' },
    ]);
    await SubscriberModel.create({ email: 'sami@example.tn', status: 'confirmed', locale: 'ar' });
    const { id } = (
      await api().post('/api/admin/campaigns', {
        ...validCampaign,
        recipientType: 'all',
        translations: [ARABIC],
      })
    ).body as { id: string };
    const response = await api().get(`/api/admin/campaigns/${id}/audience`);
    expect(response.status).toBe(200);
    // French is not written: Claire gets the default, English.
    expect(response.body).toEqual({ total: 4, languages: { en: 2, fr: 0, ar: 2 } });
  });
});

describe('preview and language audience of a campaign to lists', () => {
  /**
   * Two lists with a person in both, three suppressed members and one who
   * unsubscribed; beside them a contact and a subscriber in no list, and the
   * member who complained as a contact too.
   */
  async function listsWithSuppressedMembers(): Promise<[string, string]> {
    await Promise.all([
      ListMemberModel.deleteMany({}),
      MailingListModel.deleteMany({}),
      SuppressionModel.deleteMany({}),
      ContactModel.deleteMany({}),
      SubscriberModel.deleteMany({}),
    ]);
    const [expo, clients] = await Promise.all([
      api().post('/api/admin/lists', { name: 'Expo guests' }),
      api().post('/api/admin/lists', { name: 'Clients' }),
    ]);
    const members: [string, { email: string; locale: string }[]][] = [
      [
        expo.body.id as string,
        [
          { email: 'anna@lists.tn', locale: 'en' },
          { email: 'layla@lists.tn', locale: 'ar' },
          { email: 'claire@lists.tn', locale: 'fr' },
          { email: 'bounced@lists.tn', locale: 'ar' },
          { email: 'shared@lists.tn', locale: 'ar' },
          { email: 'left@lists.tn', locale: 'en' },
        ],
      ],
      [
        clients.body.id as string,
        [
          { email: 'SHARED@lists.tn', locale: 'ar' },
          { email: 'complained@lists.tn', locale: 'en' },
          { email: 'staff@lists.tn', locale: 'fr' },
          { email: 'omar@lists.tn', locale: 'ar' },
        ],
      ],
    ];
    for (const [list, people] of members) {
      for (const person of people) {
        expect((await api().post(`/api/admin/lists/${list}/members`, person)).status).toBe(201);
      }
    }
    await suppressAddress({ email: 'bounced@lists.tn', reason: 'hard-bounce', source: 'ses' });
    await suppressAddress({
      email: 'complained@lists.tn',
      reason: 'complaint',
      source: 'postmark',
    });
    expect((await api().post('/api/admin/suppressions', { email: 'staff@lists.tn' })).status).toBe(
      201,
    );
    await SubscriberModel.create({ email: 'left@lists.tn', status: 'unsubscribed', locale: 'en' });
    await ContactModel.create([
      { ...consentedEnquiry, email: 'outsider@example.tn', locale: 'ar' },
      { ...consentedEnquiry, email: 'complained@lists.tn', locale: 'en' },
    ]);
    await SubscriberModel.create({ email: 'reader@example.tn', status: 'confirmed', locale: 'fr' });
    return [expo.body.id as string, clients.body.id as string];
  }

  const emailsOf = (body: { items: { email: string }[] }) =>
    body.items.map(({ email }) => email.toLowerCase()).sort();

  it("counts each language over the lists' members the send reaches, without the suppressed", async () => {
    const listIds = await listsWithSuppressedMembers();
    const { id } = (
      await api().post('/api/admin/campaigns', {
        ...validCampaign,
        recipientType: 'lists',
        listIds,
        translations: [ARABIC],
      })
    ).body as { id: string };

    const response = await api().get(`/api/admin/campaigns/${id}/audience`);

    expect(response.status).toBe(200);
    // anna (en), claire (fr is not written: en), layla, shared once, omar (ar).
    expect(response.body).toEqual({ total: 5, languages: { en: 2, fr: 0, ar: 3 } });
    const confirmation = await api().get(
      `/api/admin/campaigns/audience?listIds=${listIds.join(',')}`,
    );
    expect(confirmation.body.lists).toBe(response.body.total);
  });

  it('fills the preview in only for members the send reaches', async () => {
    const [expo, clients] = await listsWithSuppressedMembers();
    const sample = (query: string) => api().get(`/api/admin/campaigns/sample-recipients?${query}`);

    const both = await sample(`recipientType=lists&listIds=${expo},${clients}`);
    expect(both.status).toBe(200);
    expect(emailsOf(both.body)).toEqual([
      'anna@lists.tn',
      'claire@lists.tn',
      'layla@lists.tn',
      'omar@lists.tn',
      'shared@lists.tn',
    ]);
    expect(both.body.items).toContainEqual({
      email: 'layla@lists.tn',
      firstName: '',
      lastName: '',
      locale: 'ar',
    });
    expect(emailsOf((await sample(`recipientType=lists&listIds=${clients}`)).body)).toEqual([
      'omar@lists.tn',
      'shared@lists.tn',
    ]);
    expect(emailsOf((await sample('recipientType=all')).body)).toEqual([
      'outsider@example.tn',
      'reader@example.tn',
    ]);
    const none = await sample('recipientType=lists');
    expect(none.status).toBe(200);
    expect(none.body.items).toEqual([]);
  });

  it('refuses lists that are not ids with the field and the reason', async () => {
    for (const query of [
      'recipientType=lists&listIds=nope',
      `recipientType=lists&listIds=${'a'.repeat(24)},`,
      // A repeated parameter arrives as an array, not as text.
      `recipientType=lists&listIds=${'a'.repeat(24)}&listIds=${'b'.repeat(24)}`,
    ]) {
      const response = await api().get(`/api/admin/campaigns/sample-recipients?${query}`);
      expect(response.status).toBe(400);
      expect(Object.keys(response.body.error.fields)).toEqual(['listIds']);
    }
    const bad = await api().get('/api/admin/campaigns/sample-recipients?listIds=nope');
    expect(bad.body.error.fields.listIds).toBe('Must be a valid id');
  });
});
