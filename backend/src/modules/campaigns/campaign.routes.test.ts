import { campaignDispatchJobId } from '@agency/contracts';
import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  as,
  signedInUser,
  unknownId,
  validCampaign,
  validEnquiry,
  type SignedInUser,
  without,
} from '../../testing/admin-fixtures';
import { ContactModel } from '../contact';
import { SubscriberModel } from '../newsletter';
import { CampaignModel } from './campaign.model';

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

describe('campaign drafts', () => {
  it('creates a draft with sanitised HTML and zero counters, ignoring status and counts sent by the client', async () => {
    const response = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      content:
        '<p onclick="steal()">Hello <b>there</b></p><script>alert(1)</script>' +
        '<a href="javascript:alert(1)">x</a><img src="data:image/png;base64,AA" onerror="x()">' +
        '<a href="https://agency.tn">ok</a><iframe src="https://evil.test"></iframe>',
      status: 'sent',
      sentCount: 500,
      total: 9,
    });

    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      name: 'Spring offer',
      subject: 'Our spring packages',
      recipientType: 'subscribers',
      status: 'draft',
      total: 0,
      sentCount: 0,
      failedCount: 0,
      queuedAt: null,
    });
    expect(response.body.content).toBe(
      '<p>Hello <b>there</b></p><a rel="noopener noreferrer">x</a><img />' +
        '<a href="https://agency.tn" rel="noopener noreferrer">ok</a>',
    );
    const stored = await CampaignModel.findById(response.body.id).lean();
    expect(stored?.content).toBe(response.body.content);
  });

  it('defaults recipientType to all and reports each invalid field', async () => {
    const rest = without(validCampaign, 'recipientType');
    expect((await api().post('/api/admin/campaigns', rest)).body.recipientType).toBe('all');

    const invalid = await api().post('/api/admin/campaigns', {
      name: '',
      subject: 4,
      recipientType: 'everyone',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.fields).toEqual({
      name: 'This field is required',
      subject: 'Must be text',
      content: 'This field is required',
      recipientType: 'Must be one of all, contacts, subscribers',
    });
    const onlyScript = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      content: '<script>x()</script>',
    });
    expect(onlyScript.status).toBe(400);
    expect(onlyScript.body.error.fields).toEqual({
      content: 'Nothing is left once unsafe HTML is removed',
    });
  });

  it('lists with total, status filter and search', async () => {
    await CampaignModel.deleteMany({});
    await api().post('/api/admin/campaigns', { ...validCampaign, name: 'Ramadan greetings' });
    await api().post('/api/admin/campaigns', { ...validCampaign, name: 'Summer sale' });
    const response = await api().get('/api/admin/campaigns?search=ramadan&status=draft');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ total: 1, items: [{ name: 'Ramadan greetings' }] });
  });
});

describe('POST /api/admin/campaigns/:id/send', () => {
  it('moves a draft to queued, enqueues one dispatch job carrying its id, and answers 202', async () => {
    const draft = await api().post('/api/admin/campaigns', validCampaign);
    const id = draft.body.id as string;

    const response = await api().post(`/api/admin/campaigns/${id}/send`);

    expect(response.status).toBe(202);
    expect(response.body.campaign).toMatchObject({
      id,
      status: 'queued',
      queuedAt: expect.any(String),
    });
    const job = await ctx.campaignQueue.dispatch.getJob(campaignDispatchJobId(id));
    expect(job?.data).toEqual({ campaignId: id });
    expect(job?.name).toBe('campaign-dispatch');
  });

  it('answers 409 for anything but a draft, and edits and deletes no campaign being sent', async () => {
    const draft = await api().post('/api/admin/campaigns', validCampaign);
    const id = draft.body.id as string;
    await api().post(`/api/admin/campaigns/${id}/send`);

    const again = await api().post(`/api/admin/campaigns/${id}/send`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
    expect(await ctx.campaignQueue.dispatch.getJobCounts('waiting')).toMatchObject({
      waiting: expect.any(Number),
    });
    expect((await api().put(`/api/admin/campaigns/${id}`, validCampaign)).status).toBe(409);
    expect((await api().delete(`/api/admin/campaigns/${id}`)).status).toBe(409);

    for (const status of ['sending', 'paused', 'sent', 'failed', 'cancelled']) {
      await CampaignModel.updateOne({ _id: id }, { $set: { status } });
      expect({
        status,
        code: (await api().post(`/api/admin/campaigns/${id}/send`)).status,
      }).toEqual({ status, code: 409 });
    }
    // A finished campaign may be deleted.
    expect((await api().delete(`/api/admin/campaigns/${id}`)).status).toBe(204);
    expect((await api().post(`/api/admin/campaigns/${unknownId()}/send`)).status).toBe(404);
    expect((await api().post('/api/admin/campaigns/abc/send')).status).toBe(400);
  });

  it('keeps the draft and answers 503 when the queue cannot take the job', async () => {
    const offline = await createTestContext({ redisUrl: 'redis://127.0.0.1:1' });
    try {
      const user = await signedInUser(offline, 'manager');
      const draft = await as(offline, user).post('/api/admin/campaigns', validCampaign);
      const response = await as(offline, user).post(`/api/admin/campaigns/${draft.body.id}/send`);
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe('UNAVAILABLE');
      expect((await CampaignModel.findById(draft.body.id).lean())?.status).toBe('draft');
    } finally {
      await offline.close();
    }
  });

  it('updates a draft with sanitised content', async () => {
    const draft = await api().post('/api/admin/campaigns', validCampaign);
    const response = await api().put(`/api/admin/campaigns/${draft.body.id}`, {
      ...validCampaign,
      name: 'Renamed',
      content: '<p style="x">Hi<script>1</script></p>',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'Renamed', content: '<p>Hi</p>', status: 'draft' });
    expect((await api().put(`/api/admin/campaigns/${unknownId()}`, validCampaign)).status).toBe(
      404,
    );
  });
});

describe('GET /api/admin/campaigns/audience', () => {
  it('counts each recipient type once per address, leaving out whoever unsubscribed', async () => {
    const enquiry = (email: string) => ({ ...validEnquiry, email });
    await ContactModel.insertMany([
      enquiry('amira@example.tn'),
      enquiry('AMIRA@example.tn'), // the same person, enquiring again
      enquiry('sami@example.tn'),
      enquiry('left@example.tn'),
    ]);
    await SubscriberModel.create([
      { email: 'sami@example.tn', status: 'confirmed' }, // also a contact
      { email: 'nour@example.tn', status: 'confirmed' },
      { email: 'waiting@example.tn', status: 'pending' },
      { email: 'left@example.tn', status: 'unsubscribed' },
    ]);

    const response = await as(ctx, await signedInUser(ctx, 'viewer')).get(
      '/api/admin/campaigns/audience',
    );

    expect(response.status).toBe(200);
    // contacts: amira, sami; subscribers: sami, nour; all: amira, sami, nour.
    expect(response.body).toEqual({ contacts: 2, subscribers: 2, all: 3 });
  });
});
