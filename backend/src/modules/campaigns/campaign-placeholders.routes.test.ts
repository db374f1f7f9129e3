import { DEFAULT_PLACEHOLDER_FALLBACKS } from '@agency/contracts';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, signedInUser, validCampaign, type SignedInUser } from '../../testing/admin-fixtures';

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

describe("a campaign's placeholder fallbacks", () => {
  it("stores the editor's default fallback per language, the shipped one where none is set", async () => {
    const created = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      content: '<p>Dear {{firstName|there}},</p>',
      placeholderFallbacks: { fr: 'cher client' },
    });
    expect(created.status).toBe(201);
    expect(created.body.placeholderFallbacks).toEqual({
      ...DEFAULT_PLACEHOLDER_FALLBACKS,
      fr: 'cher client',
    });

    const id = created.body.id as string;
    const updated = await api().put(`/api/admin/campaigns/${id}`, {
      ...validCampaign,
      placeholderFallbacks: { en: 'friend', fr: 'cher client', ar: 'صديقنا العزيز' },
    });
    expect(updated.status).toBe(200);
    expect((await api().get(`/api/admin/campaigns/${id}`)).body.placeholderFallbacks).toEqual({
      en: 'friend',
      fr: 'cher client',
      ar: 'صديقنا العزيز',
    });
  });

  it('gives a campaign stored before it had fallbacks the shipped ones', async () => {
    const { id } = (await api().post('/api/admin/campaigns', validCampaign)).body as { id: string };
    await CampaignModel.updateOne({ _id: id }, { $unset: { placeholderFallbacks: 1 } });
    expect((await api().get(`/api/admin/campaigns/${id}`)).body.placeholderFallbacks).toEqual(
      DEFAULT_PLACEHOLDER_FALLBACKS,
    );
  });

  it.each([
    [
      'content',
      { content: '<p>Dear {{firstName|<b>you</b>}},</p>' },
      'The fallback of firstName must be plain text, without braces, | or markup',
    ],
    [
      'subject',
      { subject: `Hi {{firstName|${'x'.repeat(41)}}}` },
      'The fallback of firstName must be at most 40 characters long',
    ],
    [
      'content',
      { content: '<p>Dear {{firstName|the{re}},</p>' },
      'A placeholder is not closed, or its fallback holds a brace: write it like {{firstName|there}}',
    ],
    [
      'placeholderFallbacks.fr',
      { placeholderFallbacks: { fr: '<i>vous</i>' } },
      'The fallback of fr must be plain text, without braces, | or markup',
    ],
    ['placeholderFallbacks.en', { placeholderFallbacks: { en: '  ' } }, 'This field is required'],
  ])(
    'refuses a bad fallback in %s, naming the field, and keeps what was stored',
    async (field, body, reason) => {
      const { id } = (await api().post('/api/admin/campaigns', validCampaign)).body as {
        id: string;
      };
      const response = await api().put(`/api/admin/campaigns/${id}`, { ...validCampaign, ...body });
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(response.body.error.fields[field]).toBe(reason);
      expect((await api().get(`/api/admin/campaigns/${id}`)).body).toMatchObject({
        subject: validCampaign.subject,
        placeholderFallbacks: DEFAULT_PLACEHOLDER_FALLBACKS,
      });
    },
  );

  it('previews a nameless recipient with the fallbacks the editor holds', async () => {
    const response = await api().post('/api/admin/campaigns/preview', {
      subject: 'Quick update for {{firstName|our reader}}',
      content: '<p>Bonjour {{firstName}},</p>',
      locale: 'fr',
      placeholderFallbacks: { fr: 'chère lectrice' },
      recipient: { email: 'x@example.tn', firstName: '', lastName: '' },
    });
    expect(response.status).toBe(200);
    expect(response.body.subject).toBe('Quick update for our reader');
    expect(response.body.html).toContain('Bonjour chère lectrice,');
  });
});
