import { DEFAULT_TEMPLATE_LAYOUT } from '@agency/contracts';
import { CampaignTemplateModel } from '@agency/platform';
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
const PATH = '/api/admin/campaign-templates';

const validTemplate = {
  name: 'Autumn',
  header: '<h1>{{senderName}}</h1><script>alert(1)</script>',
  footer: '<p>Sent to {{email}}</p>',
  layout: `<div onclick="x()">${DEFAULT_TEMPLATE_LAYOUT}</div>`,
  brandColor: '#B45309',
  backgroundColor: '#fef3c7',
  textColor: '#1f2937',
};

describe('campaign templates', () => {
  it('lists the built-in default first, then creates one sanitised with its colour slots kept', async () => {
    const list = await api().get(PATH);
    expect(list.body.items[0]).toMatchObject({ id: 'default', builtIn: true });
    expect(list.body.items[0].layout).toContain('{{content}}');

    const created = await api().post(PATH, validTemplate);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Autumn', brandColor: '#b45309', builtIn: false });
    expect(created.body.header).toBe('<h1>{{senderName}}</h1>');
    expect(created.body.layout).toContain('style="background-color:{{brandColor}};');
    expect(created.body.layout).not.toContain('onclick');
  });

  it('refuses a layout without {{content}}, an unknown variable and a bad colour', async () => {
    const response = await api().post(PATH, {
      ...validTemplate,
      layout: '<table><tr><td>{{header}}</td></tr></table>',
      footer: '<p>{{phone}}</p>',
      brandColor: 'red',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.fields).toMatchObject({
      layout: 'The layout must hold {{content}} where the campaign goes',
      footer: expect.stringContaining('Unknown variable "phone"'),
      brandColor: 'Use a colour such as #4f46e5',
    });
    // A slot the sanitiser would remove is refused too, not stored broken.
    const stripped = await api().post(PATH, {
      ...validTemplate,
      layout: '<script>{{content}}</script>',
    });
    expect(stripped.status).toBe(400);
    expect(await CampaignTemplateModel.countDocuments({ name: 'Autumn', layout: /script/ })).toBe(
      0,
    );
  });

  it('duplicates the default, edits the copy, and refuses to delete it while a campaign uses it', async () => {
    const copy = await api().post(`${PATH}/default/duplicate`);
    expect(copy.status).toBe(201);
    expect(copy.body).toMatchObject({ name: 'Agency (default) (copy)', builtIn: false });
    const id = copy.body.id as string;

    const edited = await api().put(`${PATH}/${id}`, { ...validTemplate, name: 'Renamed' });
    expect(edited.body).toMatchObject({ id, name: 'Renamed' });

    const campaign = await api().post('/api/admin/campaigns', { ...validCampaign, templateId: id });
    expect(campaign.body.templateId).toBe(id);
    expect((await api().get(`${PATH}/${id}`)).body.usedBy).toBe(1);

    const refused = await api().delete(`${PATH}/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      'This template is used by 1 campaign; choose another template for them first',
    );
    expect(await CampaignTemplateModel.exists({ _id: id })).toBeTruthy();

    await api().put(`/api/admin/campaigns/${campaign.body.id as string}`, {
      ...validCampaign,
      templateId: null,
    });
    expect((await api().delete(`${PATH}/${id}`)).status).toBe(204);
    expect(await CampaignTemplateModel.exists({ _id: id })).toBeFalsy();
  });

  it('refuses a campaign naming a template that does not exist', async () => {
    const response = await api().post('/api/admin/campaigns', {
      ...validCampaign,
      templateId: '64b7f0c2a1b2c3d4e5f60718',
    });
    expect(response.status).toBe(400);
    expect(response.body.error.fields.templateId).toBe('No template with this id');
  });

  it('lets a viewer read templates but not write them', async () => {
    const viewer = as(ctx, await signedInUser(ctx, 'viewer'));
    expect((await viewer.get(PATH)).status).toBe(200);
    expect((await viewer.post(PATH, validTemplate)).status).toBe(403);
    expect((await viewer.post(`${PATH}/default/duplicate`)).status).toBe(403);
  });
});
