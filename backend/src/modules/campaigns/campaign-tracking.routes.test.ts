import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, signedInUser, validCampaign, type SignedInUser } from '../../testing/admin-fixtures';

let ctx: TestContext;
let manager: SignedInUser;
let admin: SignedInUser;
beforeAll(async () => {
  ctx = await createTestContext();
  manager = await signedInUser(ctx, 'manager');
  admin = await signedInUser(ctx, 'admin');
});
afterAll(async () => {
  await ctx.close();
});
const api = () => as(ctx, manager);
const SETTINGS = '/api/admin/agency-settings';

/** Saves the agency's tracking defaults through the settings screen's own route. */
async function setAgencyTracking(opens: boolean, clicks: boolean) {
  const current = await as(ctx, admin).get(SETTINGS);
  const saved = await as(ctx, admin).put(SETTINGS, {
    ...current.body,
    tracking: { ...current.body.tracking, opens, clicks },
  });
  expect(saved.status).toBe(200);
}

describe("a campaign's tracking switches", () => {
  it("takes the agency's defaults when a new draft says nothing, and reads them as they are now", async () => {
    await setAgencyTracking(false, true);
    const first = await api().post('/api/admin/campaigns', validCampaign);
    expect(first.status).toBe(201);
    expect(first.body.tracking).toEqual({
      opens: false,
      clicks: true,
      mode: null,
      keyDestroyed: false,
    });

    await setAgencyTracking(true, false);
    const second = await api().post('/api/admin/campaigns', validCampaign);
    expect(second.body.tracking).toMatchObject({ opens: true, clicks: false });
    const stored = await CampaignModel.findById(second.body.id).lean();
    expect(stored?.tracking).toMatchObject({ opens: true, clicks: false, key: null, links: [] });
  });

  it('keeps the switches a new draft gives, whatever the defaults', async () => {
    await setAgencyTracking(true, true);
    const response = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      tracking: { opens: false, clicks: false },
    });
    expect(response.status).toBe(201);
    expect(response.body.tracking).toMatchObject({ opens: false, clicks: false });
  });

  it('changes them on an update that gives them, and keeps them on one that does not', async () => {
    const draft = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      tracking: { opens: true, clicks: false },
    });
    const id = draft.body.id as string;
    const changed = await api().put(`/api/admin/campaigns/${id}`, {
      ...validCampaign,
      tracking: { opens: false, clicks: true },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.tracking).toMatchObject({ opens: false, clicks: true });

    // The agency's defaults differ: an update without the switches still keeps the draft's own.
    await setAgencyTracking(true, false);
    const renamed = await api().put(`/api/admin/campaigns/${id}`, {
      ...validCampaign,
      name: 'Renamed',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Renamed',
      tracking: { opens: false, clicks: true },
    });
    expect((await CampaignModel.findById(id).lean())?.tracking).toMatchObject({
      opens: false,
      clicks: true,
    });
  });

  it('refuses switches of the wrong type with 400 naming the field, and changes nothing', async () => {
    const draft = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      tracking: { opens: true, clicks: true },
    });
    const id = draft.body.id as string;
    const notBoolean = await api().put(`/api/admin/campaigns/${id}`, {
      ...validCampaign,
      tracking: { opens: 'sometimes', clicks: true },
    });
    expect(notBoolean.status).toBe(400);
    expect(notBoolean.body.error.fields).toEqual({ 'tracking.opens': 'This field is required' });

    const missing = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      tracking: { opens: true },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual({ 'tracking.clicks': 'This field is required' });

    const notObject = await api().put(`/api/admin/campaigns/${id}`, {
      ...validCampaign,
      tracking: 'on',
    });
    expect(notObject.status).toBe(400);
    expect(notObject.body.error.fields).toEqual({ tracking: 'This field is required' });
    expect((await CampaignModel.findById(id).lean())?.tracking).toMatchObject({
      opens: true,
      clicks: true,
    });
  });

  it("copies a campaign's switches, never its mode, key or link table", async () => {
    const draft = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      tracking: { opens: false, clicks: true },
    });
    // As a send leaves it: the mode, the key and the table fixed at its start.
    await CampaignModel.updateOne(
      { _id: draft.body.id },
      {
        $set: {
          status: 'sent',
          'tracking.mode': 'individual',
          'tracking.key': 'k'.repeat(43),
          'tracking.links': ['https://agency.tn/'],
        },
      },
    );
    await setAgencyTracking(true, false);
    const copy = await api().post(`/api/admin/campaigns/${draft.body.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body.tracking).toEqual({
      opens: false,
      clicks: true,
      mode: null,
      keyDestroyed: false,
    });
    const stored = await CampaignModel.findById(copy.body.id).lean();
    expect(stored?.tracking).toMatchObject({ mode: null, key: null, links: [] });
  });
});
