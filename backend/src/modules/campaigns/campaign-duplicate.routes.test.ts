import { Types } from 'mongoose';
import { MailingListModel } from '@agency/platform/testing/audience-models';
import { ActivityLogModel } from '@agency/platform/testing/activity-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import {
  as,
  signedInUser,
  unknownId,
  validCampaign,
  type SignedInUser,
} from '../../testing/admin-fixtures';
import {
  CampaignBatchModel,
  CampaignModel,
  CampaignOutcomeModel,
  CampaignTemplateModel,
  campaignBatchId,
} from '@agency/platform/testing/campaigns-models';

let ctx: TestContext;
let manager: SignedInUser;
beforeAll(async () => {
  // A global cap of 600 a minute, under which a copy's own rate must fit.
  ctx = await createTestContext({ env: { CAMPAIGN_RATE_LIMIT_PER_SECOND: '10' } });
  manager = await signedInUser(ctx, 'manager');
});
afterAll(async () => {
  await ctx.close();
});
const api = () => as(ctx, manager);
const duplicate = (id: string) => api().post(`/api/admin/campaigns/${id}/duplicate`);

const FRENCH = { locale: 'fr', subject: 'Nos offres', content: '<p>Bonjour {{firstName}}</p>' };
const ARABIC = { locale: 'ar', subject: 'عروضنا', content: '<p>مرحبا {{firstName}}</p>' };

/** A campaign as a finished send leaves it: counters, rounds, times and a ledger. */
async function sentCampaign(name: string): Promise<string> {
  const template = await CampaignTemplateModel.create({
    name: `Template of ${name}`,
    header: 'Agency',
    footer: 'See you',
    layout: '<div>{{header}}{{content}}{{footer}}</div>',
    brandColor: '#123456',
    backgroundColor: '#ffffff',
    textColor: '#000000',
  });
  const list = await MailingListModel.create({ name: `Readers of ${name}` });
  const campaign = await CampaignModel.create({
    ...validCampaign,
    name,
    recipientType: 'lists',
    listIds: [list._id],
    defaultLocale: 'en',
    translations: [FRENCH, ARABIC],
    templateId: template._id,
    sendingWindow: { days: [1, 3], start: '08:00', end: '18:00' },
    ratePerMinute: 120,
    status: 'sent',
    total: 40,
    sentCount: 38,
    failedCount: 2,
    round: 2,
    pass: 3,
    dispatchedRound: 2,
    roundBaseSent: 30,
    countersVersion: 9,
    scheduledAt: new Date('2030-01-01T09:00:00Z'),
    queuedAt: new Date(),
    startedAt: new Date(),
    finishedAt: new Date(),
  });
  const _id = campaignBatchId(String(campaign._id), 1, 0);
  await CampaignBatchModel.create({
    _id,
    campaign: campaign._id,
    round: 1,
    seq: 0,
    recipients: [{ key: 'a@x.tn', email: 'a@x.tn' }],
    createdAt: new Date(),
  });
  await CampaignOutcomeModel.create({
    _id,
    campaign: campaign._id,
    round: 1,
    seq: 0,
    outcomes: [{ email: 'a@x.tn', state: 'sent', position: 0, attempts: 1, at: new Date() }],
  });
  return String(campaign._id);
}

describe('duplicating a campaign', () => {
  it('makes a draft with every language, the template and the audience, and none of the send', async () => {
    const id = await sentCampaign('Summer offer');
    const source = await CampaignModel.findById(id).lean();

    const response = await duplicate(id);

    expect(response.status).toBe(201);
    const copy = response.body as { id: string };
    expect(copy.id).not.toBe(id);
    expect(response.body).toMatchObject({
      name: 'Copy of Summer offer',
      subject: validCampaign.subject,
      content: validCampaign.content,
      recipientType: 'lists',
      listIds: source?.listIds.map(String),
      defaultLocale: 'en',
      translations: [FRENCH, ARABIC],
      templateId: String(source?.templateId),
      sendingWindow: { days: [1, 3], start: '08:00', end: '18:00' },
      ratePerMinute: 120,
      status: 'draft',
      scheduledAt: null,
      total: 0,
      sentCount: 0,
      failedCount: 0,
      queuedAt: null,
      startedAt: null,
      finishedAt: null,
    });
    const stored = await CampaignModel.findById(copy.id).lean();
    expect(stored).toMatchObject({
      round: 1,
      pass: 1,
      dispatchedRound: 0,
      roundBaseSent: 0,
      countersVersion: 0,
      createdBy: new Types.ObjectId(manager.id),
    });
    expect(stored?.pausedAt).toBeUndefined();
    expect(stored?.cancelledAt).toBeUndefined();
    // The copy has no ledger of its own; the original keeps its own, and is unchanged.
    expect(await CampaignBatchModel.countDocuments({ campaign: stored?._id })).toBe(0);
    expect(await CampaignOutcomeModel.countDocuments({ campaign: stored?._id })).toBe(0);
    expect(await CampaignBatchModel.countDocuments({ campaign: source?._id })).toBe(1);
    expect(await CampaignModel.findById(id).lean()).toEqual(source);
  });

  it('lets the copy be edited and saved as it is', async () => {
    const { body: copy } = await duplicate(await sentCampaign('Autumn offer'));
    const { id, name, subject, content, recipientType, listIds, translations } = copy as {
      id: string;
    } & Record<string, unknown>;
    const saved = await api().put(`/api/admin/campaigns/${id}`, {
      name,
      subject,
      content,
      recipientType,
      listIds,
      translations,
    });
    expect(saved.status).toBe(200);
  });

  it('copies a scheduled campaign as a draft that is not scheduled', async () => {
    const scheduled = await CampaignModel.create({
      ...validCampaign,
      name: 'Later',
      status: 'scheduled',
      scheduledAt: new Date(Date.now() + 3_600_000),
    });
    const response = await duplicate(String(scheduled._id));
    expect(response.body).toMatchObject({ status: 'draft', scheduledAt: null });
    expect((await CampaignModel.findById(scheduled._id).lean())?.status).toBe('scheduled');
  });

  it('numbers further copies, copies a copy from its original, and names it in the asker’s language', async () => {
    const { body: first } = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      name: 'Winter offer',
    });
    const id = (first as { id: string }).id;
    const names: string[] = [];
    for (const from of [id, id]) names.push((await duplicate(from)).body.name as string);
    const copyOfCopy = await CampaignModel.findOne({ name: 'Copy of Winter offer' }).lean();
    names.push((await duplicate(String(copyOfCopy?._id))).body.name as string);
    expect(names).toEqual([
      'Copy of Winter offer',
      'Copy of Winter offer (2)',
      'Copy of Winter offer (3)',
    ]);

    const french = await api()
      .post(`/api/admin/campaigns/${id}/duplicate`)
      .set('Accept-Language', 'fr');
    expect(french.body.name).toBe('Copie de Winter offer');
    const arabic = await api()
      .post(`/api/admin/campaigns/${id}/duplicate`)
      .set('Accept-Language', 'ar');
    expect(arabic.body.name).toBe('نسخة من Winter offer');
  });

  it('leaves out a list deleted since, and keeps the rate under the global cap', async () => {
    const gone = await MailingListModel.create({ name: 'Gone' });
    const kept = await MailingListModel.create({ name: 'Kept' });
    const source = await CampaignModel.create({
      ...validCampaign,
      name: 'Old lists',
      recipientType: 'lists',
      listIds: [gone._id, kept._id],
      ratePerMinute: 5_000,
    });
    await MailingListModel.deleteOne({ _id: gone._id });

    const response = await duplicate(String(source._id));

    expect(response.body).toMatchObject({ listIds: [String(kept._id)], ratePerMinute: 600 });
  });

  it('writes who copied what to the activity log, and counts one more campaign', async () => {
    const id = await sentCampaign('Logged offer');
    const before = (await api().get('/api/admin/stats')).body.totalCampaigns as number;
    const { body: copy } = await duplicate(id);

    const entries = await ActivityLogModel.find({ action: 'campaign.duplicate' })
      .where('target.id')
      .equals(copy.id)
      .lean();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { id: manager.id, username: manager.username },
      target: { type: 'campaign', id: copy.id, label: 'Copy of Logged offer' },
    });
    expect(entries[0]?.changes).toEqual(
      expect.arrayContaining([
        { field: 'copiedFrom', after: 'Logged offer' },
        expect.objectContaining({ field: 'status', after: 'draft' }),
      ]),
    );
    expect((await api().get('/api/admin/stats')).body.totalCampaigns).toBe(before + 1);
  });

  it('answers 404 for an unknown campaign and 400 naming the id for a malformed one', async () => {
    const count = await CampaignModel.countDocuments({});
    const unknown = await duplicate(unknownId());
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const malformed = await duplicate('not-an-id');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.fields.id).toBe('Must be a valid id');
    expect(await CampaignModel.countDocuments({})).toBe(count);
  });

  it('refuses the roles that may not write campaigns, and signed-out callers', async () => {
    const id = await sentCampaign('Guarded offer');
    const count = await CampaignModel.countDocuments({});
    for (const role of ['viewer', 'editor'] as const) {
      const user = await signedInUser(ctx, role);
      const response = await as(ctx, user).post(`/api/admin/campaigns/${id}/duplicate`);
      expect(response.status).toBe(403);
    }
    expect((await as(ctx, null).post(`/api/admin/campaigns/${id}/duplicate`)).status).toBe(401);
    const admin = await signedInUser(ctx, 'admin');
    expect((await as(ctx, admin).post(`/api/admin/campaigns/${id}/duplicate`)).status).toBe(201);
    expect(await CampaignModel.countDocuments({})).toBe(count + 1);
  });
});
