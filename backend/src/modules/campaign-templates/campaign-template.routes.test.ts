import { DEFAULT_TEMPLATE_LAYOUT } from '@agency/contracts';
import { Parser } from 'htmlparser2';
import { CampaignTemplateModel } from '@agency/platform/testing/campaigns-models';
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

/** Every attribute name of every element, as a mail client's parser reads the HTML. */
function attributeNamesOf(html: string): string[] {
  const names: string[] = [];
  new Parser({ onattribute: (name) => names.push(name) }).end(html);
  return names;
}
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

  describe('placeholders outside text', () => {
    // The layout and content that put `onerror` on an image of a real mail.
    const bannerLayout = '<img src="https://cdn.example/banner.png" alt="{{content}}">';
    const breakingContent =
      '<a title=" onmouseover=alert(1) onerror=alert(2) x=" href="https://ok.example/">offer</a>';
    const reason = '{{content}} may only stand in text, not inside the attribute alt of <img>';

    it('refuses a layout that puts {{content}} in an attribute, on create and on update, keeping what is stored', async () => {
      const created = await api().post(PATH, {
        ...validTemplate,
        name: 'Banner',
        layout: bannerLayout,
      });
      expect(created.status).toBe(400);
      expect(created.body.error).toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: { layout: reason },
      });
      expect(await CampaignTemplateModel.countDocuments({ name: 'Banner' })).toBe(0);

      const kept = await api().post(PATH, { ...validTemplate, name: 'Kept' });
      const id = kept.body.id as string;
      const updated = await api().put(`${PATH}/${id}`, {
        ...validTemplate,
        name: 'Kept',
        layout: `<p>{{content}}</p>${bannerLayout}`,
      });
      expect(updated.status).toBe(400);
      expect(updated.body.error.fields).toEqual({ layout: reason });
      const stored = await CampaignTemplateModel.findById(id).lean();
      expect(stored?.layout).toBe(kept.body.layout);
    });

    it('refuses the same layout in a template previewed before it is saved', async () => {
      const response = await api().post('/api/admin/campaigns/preview', {
        subject: 'Offer',
        content: breakingContent,
        template: { ...validTemplate, layout: bannerLayout },
      });
      expect(response.status).toBe(400);
      expect(response.body.error.fields['template.layout']).toBe(reason);
    });

    it('refuses an entity-spelt placeholder and one in an attribute name, a comment, a script or a link, naming each place', async () => {
      const cases = [
        [
          '<p>{{content}}</p><img alt="&#123;&#123;footer}}">',
          '{{footer}} may only stand in text, not inside the attribute alt of <img>',
        ],
        [
          '<p {{header}}>{{content}}</p>',
          '{{header}} may only stand in text, not inside the attribute {{header}} of <p>',
        ],
        [
          '<p>{{content}}</p><!-- {{unsubscribeUrl}} -->',
          '{{unsubscribeUrl}} may only stand in text, not inside a comment or declaration',
        ],
        [
          '<p>{{content}}</p><script>var name = "{{firstName}}";</script>',
          '{{firstName}} may only stand in text, not inside <script>',
        ],
        [
          '<p>{{content}}</p><a href="https://x.example/?u={{email}}">x</a>',
          '{{email}} may only stand in text, not inside the attribute href of <a>',
        ],
      ] as const;
      for (const [layout, message] of cases) {
        const response = await api().post(PATH, { ...validTemplate, layout });
        expect(response.status).toBe(400);
        expect(response.body.error.fields.layout).toBe(message);
      }
    });

    it('keeps colour slots in styles and the unsubscribe link as a link address', async () => {
      const response = await api().post(PATH, {
        ...validTemplate,
        name: 'Linked',
        layout:
          '<td style="color:{{textColor}}" bgcolor="{{brandColor}}">{{content}}<a href="{{unsubscribeUrl}}">Leave</a></td>',
      });
      expect(response.status).toBe(201);
      expect(response.body.layout).toContain('href="{{unsubscribeUrl}}"');
    });

    it('renders a template stored before the rule with the part escaped where it stood, and refuses to copy it', async () => {
      const old = await CampaignTemplateModel.create({
        ...validTemplate,
        name: 'Stored before the rule',
        layout: `<p>{{content}}</p>${bannerLayout}`,
        createdBy: manager.id,
      });
      const preview = await api().post('/api/admin/campaigns/preview', {
        subject: 'Offer',
        content: breakingContent,
        templateId: String(old._id),
      });
      expect(preview.status).toBe(200);
      const html = preview.body.html as string;
      expect(attributeNamesOf(html).filter((name) => name.startsWith('on'))).toEqual([]);
      expect(html).toContain('alt="&lt;a title=&quot; onmouseover=alert(1)');
      expect(html).toMatch(/<p><a title="[^"]*" href="https:\/\/ok\.example\/"/);

      const copy = await api().post(`${PATH}/${String(old._id)}/duplicate`);
      expect(copy.status).toBe(400);
      expect(copy.body.error.fields).toEqual({ layout: reason });
    });
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
