import { CAMPAIGN_CONTENT_MAX, campaignDispatchJobId } from '@agency/contracts';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { CAMPAIGN_DRAFT_BODY_LIMIT_BYTES } from '../../middleware/json-body';
import { reconcileNow } from '../../testing/kept-figures';
import {
  as,
  signedInUser,
  unknownId,
  validCampaign,
  validEnquiry,
  type SignedInUser,
  without,
} from '../../testing/admin-fixtures';
import { countAudience, listMemberId } from '@agency/platform';
import { SubscriberModel, ListMemberModel } from '@agency/platform/testing/audience-models';
import { ContactModel } from '@agency/platform/testing/contact-models';
import { Types, type mongo } from 'mongoose';
import {
  CampaignModel,
  CampaignBatchModel,
  CampaignOutcomeModel,
  campaignBatchId,
} from '@agency/platform/testing/campaigns-models';

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
      recipientType: 'Must be one of all, contacts, subscribers, lists, segments',
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

  it('takes a newsletter as long as the form allows, and refuses a larger body with 413', async () => {
    // Attributes, quotes and Arabic make the JSON body several times the content's length.
    const block = '<p><a href="https://agency.tn/packs">عروض الربيع</a></p>';
    const content = block.repeat(Math.floor(CAMPAIGN_CONTENT_MAX / block.length));
    const body = { ...validCampaign, content };
    expect(Buffer.byteLength(JSON.stringify(body))).toBeGreaterThan(100 * 1024);

    const created = await api().post('/api/admin/campaigns', body);
    expect(created.status).toBe(201);
    const updated = await api().put(`/api/admin/campaigns/${created.body.id}`, body);
    expect(updated.status).toBe(200);
    const stored = await CampaignModel.findById(created.body.id).lean();
    expect(stored?.content.length).toBeGreaterThan(CAMPAIGN_CONTENT_MAX * 0.9);

    const huge = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      content: 'x'.repeat(CAMPAIGN_DRAFT_BODY_LIMIT_BYTES + 1),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
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
  it('counts each recipient type once per address, leaving out whoever unsubscribed or did not consent', async () => {
    const consent = {
      requestedAt: new Date(),
      locale: 'en',
      source: 'contact-form',
      wordingVersion: 'contact-news-consent-v1',
    };
    const enquiry = (email: string, consented = true) => ({
      ...validEnquiry,
      email,
      ...(consented ? { consent } : {}),
    });
    await ContactModel.insertMany([
      enquiry('amira@example.tn'),
      enquiry('AMIRA@example.tn', false), // the same person, enquiring again without the box
      enquiry('sami@example.tn'),
      enquiry('rami@example.tn', false), // without the box first, then with it
      enquiry('RAMI@example.tn'),
      enquiry('left@example.tn'),
      enquiry('olga@example.tn', false),
      enquiry('nadia@example.tn', false),
    ]);
    await SubscriberModel.create([
      { email: 'sami@example.tn', status: 'confirmed' }, // also a contact
      { email: 'nour@example.tn', status: 'confirmed' },
      { email: 'nadia@example.tn', status: 'confirmed' }, // a contact without consent
      { email: 'waiting@example.tn', status: 'pending' },
      { email: 'left@example.tn', status: 'unsubscribed' },
    ]);
    // Written behind the API's back: the reconciliation counts them and copies their addresses.
    await reconcileNow(ctx);

    const response = await as(ctx, await signedInUser(ctx, 'viewer')).get(
      '/api/admin/campaigns/audience',
    );

    expect(response.status).toBe(200);
    // contacts: amira, sami, rami (olga and nadia did not consent); subscribers:
    // sami, nour, nadia; all: amira, sami, rami, nour, nadia (olga did not consent).
    // (The worker's campaign store tests that a send walks these counts.)
    expect(response.body).toEqual({
      contacts: 3,
      subscribers: 3,
      all: 5,
      lists: 0,
      segments: 0,
      withoutConsent: { contacts: 2, all: 1 },
    });
  });

  it('leaves out suppressed addresses, and counts the lists asked for once per address', async () => {
    const viewer = as(ctx, await signedInUser(ctx, 'viewer'));
    const manager = api();
    const [first, second] = await Promise.all([
      manager.post('/api/admin/lists', { name: 'Expo 2025' }),
      manager.post('/api/admin/lists', { name: 'Clients' }),
    ]);
    for (const email of ['a@lists.tn', 'shared@lists.tn', 'bounced@lists.tn']) {
      expect(
        (await manager.post(`/api/admin/lists/${first.body.id}/members`, { email })).status,
      ).toBe(201);
    }
    await manager.post(`/api/admin/lists/${second.body.id}/members`, { email: 'SHARED@lists.tn' });
    await manager.post(`/api/admin/lists/${second.body.id}/members`, { email: 'b@lists.tn' });
    await manager.post('/api/admin/suppressions', { email: 'bounced@lists.tn' });
    await manager.post('/api/admin/suppressions', { email: 'nour@example.tn' });

    const both = await viewer.get(
      `/api/admin/campaigns/audience?listIds=${first.body.id},${second.body.id}`,
    );
    expect(both.status).toBe(200);
    // a, shared (once), b; the bounced member and the suppressed subscriber are left out.
    expect(both.body).toMatchObject({ lists: 3, subscribers: 2 });
    expect(
      (await viewer.get(`/api/admin/campaigns/audience?listIds=${second.body.id}`)).body.lists,
    ).toBe(2);
    expect((await viewer.get('/api/admin/campaigns/audience?listIds=nope')).status).toBe(400);
  });
});

describe('GET /api/admin/campaigns/audience of an imported list', () => {
  it('counts every member an import wrote, as the send walks them', async () => {
    const manager = api();
    const list = (await manager.post('/api/admin/lists', { name: 'Trade fair 2026' })).body as {
      id: string;
    };
    const listId = new Types.ObjectId(list.id);
    const at = new Date();
    // Written as the import writes them: in bulk through the driver, one document per row.
    const member = (email: string, of: Types.ObjectId) => ({
      _id: listMemberId(String(of), email),
      list: of,
      key: email,
      email,
      firstName: '',
      lastName: '',
      locale: 'en',
      tags: [],
      importId: new Types.ObjectId(),
      consent: { basis: 'import', at, file: 'fair.csv', listName: 'Trade fair 2026' },
      createdAt: at,
      updatedAt: at,
    });
    const members = ListMemberModel.collection as unknown as mongo.Collection<{ _id: string }>;
    await members.insertMany(
      Array.from({ length: 1952 }, (_, row) => member(`guest${row}@fair.tn`, listId)),
    );
    // Another list's member is not this list's.
    await members.insertOne(member('other@fair.tn', new Types.ObjectId()));

    const response = await manager.get(`/api/admin/campaigns/audience?listIds=${list.id}`);

    expect(response.status).toBe(200);
    expect(response.body.lists).toBe(1952);
    expect(response.body.lists).toBe(
      await countAudience({ recipientType: 'lists', listIds: [list.id] }),
    );
  });
});

describe('campaigns to lists', () => {
  it('needs one or more existing lists, and keeps them on the draft', async () => {
    const list = await api().post('/api/admin/lists', { name: 'Event guests' });
    const none = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      recipientType: 'lists',
    });
    expect(none.status).toBe(400);
    expect(none.body.error.fields).toEqual({ listIds: 'This field is required' });
    const unknown = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      recipientType: 'lists',
      listIds: [unknownId()],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.fields).toEqual({
      listIds: 'One of these lists does not exist or is being deleted',
    });

    const created = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      recipientType: 'lists',
      listIds: [list.body.id, list.body.id.toUpperCase()],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ recipientType: 'lists', listIds: [list.body.id] });
    // Another type drops the lists.
    const other = await api().put(`/api/admin/campaigns/${created.body.id}`, {
      ...validCampaign,
      recipientType: 'contacts',
      listIds: [list.body.id],
    });
    expect(other.body).toMatchObject({ recipientType: 'contacts', listIds: [] });
  });
});

describe('sending controls', () => {
  async function queuedCampaign(): Promise<string> {
    const draft = await api().post('/api/admin/campaigns', validCampaign);
    const id = draft.body.id as string;
    expect((await api().post(`/api/admin/campaigns/${id}/send`)).status).toBe(202);
    return id;
  }

  it('pauses a campaign being sent, resumes it as a new pass, and refuses both out of turn', async () => {
    const id = await queuedCampaign();
    expect((await api().post(`/api/admin/campaigns/${id}/resume`)).status).toBe(409);
    const paused = await api().post(`/api/admin/campaigns/${id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.campaign.status).toBe('paused');
    expect((await api().post(`/api/admin/campaigns/${id}/pause`)).status).toBe(409);

    const resumed = await api().post(`/api/admin/campaigns/${id}/resume`);
    expect(resumed.status).toBe(202);
    expect(resumed.body.campaign.status).toBe('queued');
    const job = await ctx.campaignQueue.dispatch.getJob(`campaign-dispatch-${id}-r1-p2`);
    expect(job?.data).toEqual({ campaignId: id });
    expect((await CampaignModel.findById(id).lean())?.pass).toBe(2);
  });

  it('cancels for good, with a finish time', async () => {
    const id = await queuedCampaign();
    const cancelled = await api().post(`/api/admin/campaigns/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.campaign).toMatchObject({
      status: 'cancelled',
      finishedAt: expect.any(String),
    });
    expect((await api().post(`/api/admin/campaigns/${id}/cancel`)).status).toBe(409);
    expect((await api().post(`/api/admin/campaigns/${id}/resume`)).status).toBe(409);
    const draft = await api().post('/api/admin/campaigns', validCampaign);
    expect((await api().post(`/api/admin/campaigns/${draft.body.id}/cancel`)).status).toBe(409);
    expect((await api().post(`/api/admin/campaigns/${unknownId()}/cancel`)).status).toBe(404);
  });

  it('resends to the failed only of a finished campaign, as a new round', async () => {
    const id = await queuedCampaign();
    await CampaignModel.updateOne(
      { _id: id },
      { $set: { status: 'sent', total: 10, sentCount: 7, failedCount: 3, finishedAt: new Date() } },
    );
    const resent = await api().post(`/api/admin/campaigns/${id}/resend-failed`);
    expect(resent.status).toBe(202);
    expect(resent.body.campaign).toMatchObject({
      status: 'queued',
      sentCount: 7,
      failedCount: 0,
      finishedAt: null,
    });
    const stored = await CampaignModel.findById(id).lean();
    expect(stored).toMatchObject({ round: 2, pass: 1, roundBaseSent: 7 });
    expect(await ctx.campaignQueue.dispatch.getJob(`campaign-dispatch-${id}-r2-p1`)).toBeDefined();
    // Nothing failed, or not finished: nothing to resend.
    expect((await api().post(`/api/admin/campaigns/${id}/resend-failed`)).status).toBe(409);
    await CampaignModel.updateOne({ _id: id }, { $set: { status: 'sent', failedCount: 0 } });
    expect((await api().post(`/api/admin/campaigns/${id}/resend-failed`)).status).toBe(409);
  });

  it('queues a test send to one valid address', async () => {
    const draft = await api().post('/api/admin/campaigns', validCampaign);
    const id = draft.body.id as string;
    // The sender's own address: a staff one (campaign-test-send.routes.test.ts has the rest).
    const own = `${manager.username}@agency.test`;
    const response = await api().post(`/api/admin/campaigns/${id}/test`, { email: own });
    expect(response.status).toBe(202);
    const [job] = await ctx.campaignQueue.testSend.getJobs(['waiting']);
    expect(job?.data).toEqual({ campaignId: id, email: own });
    const invalid = await api().post(`/api/admin/campaigns/${id}/test`, { email: { $gt: '' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.fields.email).toBeDefined();
    expect(
      (await api().post(`/api/admin/campaigns/${unknownId()}/test`, { email: own })).status,
    ).toBe(404);
  });

  it('answers the progress a dashboard polls, with the rate over the last minute', async () => {
    const id = await queuedCampaign();
    const startedAt = new Date(Date.now() - 30_000);
    await CampaignModel.updateOne(
      { _id: id },
      { $set: { status: 'sending', startedAt, total: 200, sentCount: 90, failedCount: 10 } },
    );
    // What the worker counts per second: 60 settled 20 s ago, 40 just now, 500 long ago (out of the minute).
    const second = Math.floor(Date.now() / 1000);
    const rateKey = (at: number) => `${ctx.config.queuePrefix}:campaign:${id}:rate:${at}`;
    await ctx.redis.mset(rateKey(second - 20), 60, rateKey(second), 40, rateKey(second - 90), 500);
    const response = await api().get(`/api/admin/campaigns/${id}/progress`);
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toMatchObject({
      id,
      status: 'sending',
      total: 200,
      sentCount: 90,
      failedCount: 10,
      pendingCount: 100,
      percent: 50,
      round: 1,
      startedAt: startedAt.toISOString(),
      finishedAt: null,
    });
    // 100 settled over the 30 s since the start.
    expect(response.body.ratePerSecond).toBeCloseTo(100 / 30, 0);
    expect((await api().get(`/api/admin/campaigns/${unknownId()}/progress`)).status).toBe(404);
  });

  /** A batch's two ledger documents as the worker writes them: its roster, and its outcomes. */
  async function ledgerBatch(
    id: string,
    round: number,
    seq: number,
    lines: { email: string; state: string; reason?: string; attempts?: number }[],
  ) {
    const _id = campaignBatchId(id, round, seq);
    const campaign = new Types.ObjectId(id);
    await CampaignBatchModel.create({
      _id,
      campaign,
      round,
      seq,
      recipients: lines.map(({ email }) => ({ key: email.toLowerCase(), email })),
      createdAt: new Date(),
    });
    const outcomes = lines
      .map((line, position) => ({ ...line, position, at: new Date() }))
      .filter(({ state }) => state !== 'pending');
    if (outcomes.length > 0) {
      await CampaignOutcomeModel.create({ _id, campaign, round, seq, outcomes });
    }
  }

  it("deletes a finished campaign with its ledger, and keeps every other campaign's", async () => {
    const [gone, kept] = [await queuedCampaign(), await queuedCampaign()];
    const sent = [
      { email: 'a@x.tn', state: 'sent', attempts: 1 },
      { email: 'b@x.tn', state: 'sent', attempts: 1 },
    ];
    await ledgerBatch(gone, 1, 0, sent);
    await ledgerBatch(gone, 1, 1, sent);
    await ledgerBatch(kept, 1, 0, sent);
    for (const id of [gone, kept]) {
      await CampaignModel.updateOne({ _id: id }, { $set: { status: 'sent' } });
    }

    expect((await api().delete(`/api/admin/campaigns/${gone}`)).status).toBe(204);

    expect(await CampaignBatchModel.countDocuments({ campaign: gone })).toBe(0);
    expect(await CampaignOutcomeModel.countDocuments({ campaign: gone })).toBe(0);
    expect(await CampaignBatchModel.countDocuments({ campaign: kept })).toBe(1);
    expect(await CampaignOutcomeModel.countDocuments({ campaign: kept })).toBe(1);
    expect(await CampaignModel.exists({ _id: kept })).not.toBeNull();
  });

  it("lists the ledger's lines by state, from every batch, sorted and paged", async () => {
    const id = await queuedCampaign();
    await CampaignModel.updateOne({ _id: id }, { $set: { round: 2 } });
    // The first round: c failed then, and is sent again in the second.
    await ledgerBatch(id, 1, 0, [
      { email: 'b@x.tn', state: 'sent', attempts: 2 },
      { email: 'c@x.tn', state: 'failed', reason: '451 later', attempts: 8 },
    ]);
    await ledgerBatch(id, 1, 1, [{ email: 'a@x.tn', state: 'sent', attempts: 1 }]);
    await ledgerBatch(id, 2, 0, [
      { email: 'c@x.tn', state: 'failed', reason: '550 no', attempts: 1 },
      { email: 'e@x.tn', state: 'pending' },
      { email: 'g@x.tn', state: 'pending' },
    ]);
    await ledgerBatch(id, 2, 1, [
      { email: 'd@x.tn', state: 'failed', reason: '550 gone', attempts: 1 },
      { email: 'f@x.tn', state: 'sent', attempts: 1 },
    ]);
    const list = (query: string) => api().get(`/api/admin/campaigns/${id}/recipients${query}`);

    // Failed, by default: this round's failures only, with the server's reply.
    const failed = await list('');
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({
      total: 2,
      items: [
        { email: 'c@x.tn', state: 'failed', reason: '550 no', attempts: 1, round: 2 },
        { email: 'd@x.tn', state: 'failed', reason: '550 gone', attempts: 1, round: 2 },
      ],
    });
    // Sent: every delivery of every round, sorted by address either way and paged.
    const sent = await list('?state=sent&sort=-email&pageSize=2');
    expect(sent.body.total).toBe(3);
    expect(sent.body.items).toEqual([
      expect.objectContaining({ email: 'f@x.tn', round: 2, attempts: 1, reason: null }),
      expect.objectContaining({ email: 'b@x.tn', round: 1, attempts: 2 }),
    ]);
    const nextPage = await list('?state=sent&sort=-email&pageSize=2&page=2');
    expect(nextPage.body.items).toEqual([expect.objectContaining({ email: 'a@x.tn' })]);
    // Pending: this round's recipients still owed, paged too.
    const pending = await list('?state=pending&sort=-email&pageSize=1');
    expect(pending.body).toMatchObject({ total: 2, items: [{ email: 'g@x.tn', attempts: 0 }] });
    const pendingNext = await list('?state=pending&sort=-email&pageSize=1&page=2');
    expect(pendingNext.body.items).toEqual([
      expect.objectContaining({ email: 'e@x.tn', round: 2 }),
    ]);
    expect((await list('?state=lost')).status).toBe(400);
  });

  it('lets a viewer read progress but not pause, resume, cancel, resend or test', async () => {
    const id = await queuedCampaign();
    const viewer = await signedInUser(ctx, 'viewer');
    expect((await as(ctx, viewer).get(`/api/admin/campaigns/${id}/progress`)).status).toBe(200);
    for (const action of ['pause', 'resume', 'cancel', 'resend-failed', 'test']) {
      expect({
        action,
        code: (
          await as(ctx, viewer).post(`/api/admin/campaigns/${id}/${action}`, { email: 'a@b.tn' })
        ).status,
      }).toEqual({ action, code: 403 });
    }
    expect((await as(ctx, null).get(`/api/admin/campaigns/${id}/progress`)).status).toBe(401);
  });
});
