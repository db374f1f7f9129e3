import { ActivityLogModel } from '@agency/platform/testing/activity-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, signedInUser, validCampaign, type SignedInUser } from '../../testing/admin-fixtures';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';

/** Who may mail the enquiry contacts who did not consent, for which campaign, and the trace it leaves. */
let ctx: TestContext;
let admin: SignedInUser;
let manager: SignedInUser;
beforeAll(async () => {
  ctx = await createTestContext();
  [admin, manager] = await Promise.all([signedInUser(ctx, 'admin'), signedInUser(ctx, 'manager')]);
});
afterAll(async () => {
  await ctx.close();
});

const toEveryone = { ...validCampaign, recipientType: 'all' } as const;

async function createdBy(user: SignedInUser, body: object = toEveryone): Promise<string> {
  const response = await as(ctx, user).post('/api/admin/campaigns', body);
  expect(response.status).toBe(201);
  return response.body.id as string;
}

const storedBasis = async (id: string) =>
  (await CampaignModel.findById(id).lean())?.enquiryLawfulBasis ?? null;

/** The activity log's latest entry about this campaign. */
const lastEntryAbout = (id: string) =>
  ActivityLogModel.findOne({ 'target.id': id }).sort({ time: -1 }).lean();

describe('a campaign lawful basis for enquiry contacts without consent', () => {
  it('is set by an admin, shown on the campaign and recorded in the activity log with who set it', async () => {
    const id = await createdBy(admin, { ...toEveryone, enquiryLawfulBasis: 'legitimate-interest' });
    expect(await storedBasis(id)).toBe('legitimate-interest');
    expect(await lastEntryAbout(id)).toMatchObject({
      action: 'campaign.create',
      actor: { id: admin.id, username: admin.username },
      target: { type: 'campaign', id },
      changes: expect.arrayContaining([
        { field: 'enquiryLawfulBasis', after: 'legitimate-interest' },
      ]),
    });

    const changed = await as(ctx, admin).put(`/api/admin/campaigns/${id}`, {
      ...toEveryone,
      enquiryLawfulBasis: 'contract',
    });

    expect(changed.status).toBe(200);
    expect(changed.body.enquiryLawfulBasis).toBe('contract');
    expect(await lastEntryAbout(id)).toMatchObject({
      action: 'campaign.update',
      actor: { id: admin.id },
      changes: expect.arrayContaining([
        { field: 'enquiryLawfulBasis', before: 'legitimate-interest', after: 'contract' },
      ]),
    });
  });

  it('is refused (403, naming the field) to a manager who would set one, and nothing is stored', async () => {
    const created = await as(ctx, manager).post('/api/admin/campaigns', {
      ...toEveryone,
      name: 'Refused basis',
      enquiryLawfulBasis: 'legitimate-interest',
    });
    expect(created.status).toBe(403);
    expect(created.body.error).toMatchObject({
      code: 'FORBIDDEN',
      fields: { enquiryLawfulBasis: expect.stringContaining('admin') },
    });
    expect(await CampaignModel.countDocuments({ name: 'Refused basis' })).toBe(0);

    const id = await createdBy(manager);
    const entries = await ActivityLogModel.countDocuments({ 'target.id': id });
    const updated = await as(ctx, manager).put(`/api/admin/campaigns/${id}`, {
      ...toEveryone,
      subject: 'Changed too',
      enquiryLawfulBasis: 'contract',
    });
    expect(updated.status).toBe(403);
    expect(updated.body.error.fields).toHaveProperty('enquiryLawfulBasis');
    expect(await CampaignModel.findById(id).lean()).toMatchObject({
      subject: validCampaign.subject,
      enquiryLawfulBasis: null,
    });
    expect(await ActivityLogModel.countDocuments({ 'target.id': id })).toBe(entries);
  });

  it('lets a manager save a draft with the basis an admin chose, or clear it', async () => {
    const id = await createdBy(admin, { ...toEveryone, enquiryLawfulBasis: 'contract' });

    const kept = await as(ctx, manager).put(`/api/admin/campaigns/${id}`, {
      ...toEveryone,
      subject: 'Edited by the manager',
      enquiryLawfulBasis: 'contract',
    });
    expect(kept.status).toBe(200);
    expect(kept.body.enquiryLawfulBasis).toBe('contract');

    const cleared = await as(ctx, manager).put(`/api/admin/campaigns/${id}`, {
      ...toEveryone,
      enquiryLawfulBasis: null,
    });
    expect(cleared.status).toBe(200);
    expect(await storedBasis(id)).toBeNull();
  });

  it('refuses a basis outside the list with a 400 naming the field', async () => {
    const response = await as(ctx, admin).post('/api/admin/campaigns', {
      ...toEveryone,
      enquiryLawfulBasis: 'because',
    });

    expect(response.status).toBe(400);
    expect(response.body.error.fields.enquiryLawfulBasis).toMatch(/legitimate-interest, contract/);
  });

  it('is dropped for an audience without enquiry contacts', async () => {
    const id = await createdBy(admin, {
      ...toEveryone,
      recipientType: 'subscribers',
      enquiryLawfulBasis: 'legitimate-interest',
    });

    expect(await storedBasis(id)).toBeNull();
  });

  it('holds for one campaign only: its copy mails only those who consented', async () => {
    const id = await createdBy(admin, { ...toEveryone, enquiryLawfulBasis: 'legitimate-interest' });

    const copy = await as(ctx, admin).post(`/api/admin/campaigns/${id}/duplicate`);

    expect(copy.status).toBe(201);
    expect(copy.body.enquiryLawfulBasis).toBeNull();
    expect(await storedBasis(copy.body.id as string)).toBeNull();
    expect(await storedBasis(id)).toBe('legitimate-interest');
  });
});
