import { JSDOM } from 'jsdom';
import request from 'supertest';
import { CampaignModel } from '@agency/platform/testing/campaigns-models';
import { createTestContext, type TestContext } from '../../testing/test-context';
import { as, signedInUser, unknownId, type SignedInUser } from '../../testing/admin-fixtures';

let ctx: TestContext;
let manager: SignedInUser;
beforeAll(async () => {
  ctx = await createTestContext({ env: { CORS_ORIGIN: 'https://agency.example' } });
  manager = await signedInUser(ctx, 'manager');
});
afterAll(async () => {
  await ctx.close();
});
beforeEach(async () => {
  await CampaignModel.deleteMany({});
});

const api = () => request(ctx.app.callback());

/** A sent campaign written in English and French, with placeholders, a link and an unsubscribe link. */
function sentCampaign(overrides: Record<string, unknown> = {}) {
  return CampaignModel.create({
    name: 'Internal name',
    subject: 'Hello {{firstName}}, spring is here',
    content:
      '<p>Dear {{firstName}} {{lastName}} ({{email}}),</p><p>See <a href="https://agency.tn/packs">our packs</a>.</p>' +
      '<p><a href="{{unsubscribeUrl}}">Unsubscribe</a></p><img src="https://cdn.agency.tn/a.png" alt="Spring">',
    defaultLocale: 'en',
    translations: [
      {
        locale: 'fr',
        subject: 'Bonjour {{firstName|cher client}}',
        content: '<p>Bonjour {{firstName|cher client}}, voici le printemps.</p>',
      },
    ],
    placeholderFallbacks: { en: 'friend' },
    status: 'sent',
    publishToArchive: true,
    finishedAt: new Date('2026-03-01T10:00:00Z'),
    tracking: {
      opens: true,
      clicks: true,
      mode: 'individual',
      key: 'k'.repeat(43),
      links: ['https://agency.tn/packs'],
    },
    ...overrides,
  });
}

describe('the public archive API', () => {
  it('lists only published sent campaigns, newest first, in the asked language', async () => {
    const older = await sentCampaign({ finishedAt: new Date('2026-01-01T00:00:00Z') });
    const newer = await sentCampaign();
    await sentCampaign({ publishToArchive: false });
    await sentCampaign({ status: 'draft', finishedAt: null });
    await sentCampaign({ status: 'sending' });

    const response = await api().get('/api/archive/en');

    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=300');
    expect(response.body.items.map((item: { id: string }) => item.id)).toEqual([
      String(newer._id),
      String(older._id),
    ]);
    expect(response.body.items[0]).toEqual({
      id: String(newer._id),
      subject: 'Hello friend, spring is here',
      summary: 'Dear friend (), See our packs.',
      sentAt: '2026-03-01T10:00:00.000Z',
      locales: ['en', 'fr'],
    });
  });

  it('answers each campaign in its own language, and leaves it out of a language it is not written in', async () => {
    const campaign = await sentCampaign();
    const id = String(campaign._id);

    const french = await api().get(`/api/archive/fr/campaigns/${id}`);
    expect(french.status).toBe(200);
    expect(french.body.subject).toBe('Bonjour cher client');
    expect(french.body.html).toBe('<p>Bonjour cher client, voici le printemps.</p>');

    expect((await api().get('/api/archive/ar')).body.items).toEqual([]);
    expect((await api().get(`/api/archive/ar/campaigns/${id}`)).status).toBe(404);
  });

  it('shows neutral placeholders and no tracking, address or unsubscribe link', async () => {
    const campaign = await sentCampaign();

    const { body } = await api().get(`/api/archive/en/campaigns/${String(campaign._id)}`);

    expect(body.html).toBe(
      '<p>Dear friend  (),</p><p>See <a href="https://agency.tn/packs" rel="noopener noreferrer">our packs</a>.</p>' +
        '<p></p><img src="https://cdn.agency.tn/a.png" alt="Spring" />',
    );
    const all = JSON.stringify(body);
    expect(all).not.toMatch(/\{\{|unsubscribe|\/api\/t\/|@/i);
    expect(all).not.toContain('Internal name');
  });

  it("carries no recipient's manage link, in any language, on any archive page", async () => {
    // What the mail's footer says beside the unsubscribe link, as if a stored content said it too.
    const manage = (label: string) =>
      `<p><a href="{{unsubscribeUrl}}">x</a> · <a href="{{manageUrl}}">${label}</a></p>`;
    const campaign = await sentCampaign({
      content: `<p>Spring</p>${manage('Manage your subscription')}`,
      translations: [
        {
          locale: 'fr',
          subject: 'Printemps',
          content: `<p>Printemps</p>${manage('Gérer votre abonnement')}`,
        },
        { locale: 'ar', subject: 'ربيع', content: `<p>ربيع</p>${manage('إدارة اشتراكك')}` },
      ],
    });
    const id = String(campaign._id);

    for (const locale of ['en', 'fr', 'ar']) {
      const answers = await Promise.all(
        [
          `/api/archive/${locale}`,
          `/api/archive/${locale}/campaigns/${id}`,
          `/api/archive/${locale}/pages`,
          `/api/archive/${locale}/pages/${id}`,
          `/api/archive/${locale}/feed.xml`,
        ].map((path) => api().get(path)),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        const said = answer.text;
        expect(said).toMatch(/Spring|Printemps|ربيع/);
        expect(said).not.toMatch(/preferences|token=|\{\{|Manage your|Gérer votre|إدارة اشتراكك/i);
      }
    }
  });

  it('sanitises what is stored again, and escapes the subject, so nothing runs on the page', async () => {
    const campaign = await sentCampaign({
      subject: '<script>alert(1)</script> News',
      content:
        '<p onclick="steal()">Hi</p><script>alert(2)</script><a href="javascript:alert(3)">x</a>' +
        '<img src="https://cdn.agency.tn/b.png" onerror="alert(4)" alt="b">',
      translations: [],
    });
    const id = String(campaign._id);

    const { body } = await api().get(`/api/archive/en/campaigns/${id}`);
    const page = (await api().get(`/api/archive/en/pages/${id}`)).text;

    expect(body.html).toBe('<p>Hi</p><img src="https://cdn.agency.tn/b.png" alt="b" />');
    expect(page).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt; News</h1>');
    expect(page).not.toMatch(/<script|onclick|onerror|javascript:/i);
  });

  it('refuses unpublished, unsent and unknown campaigns with 404, hostile ids and languages with 400', async () => {
    const hidden = await sentCampaign({ publishToArchive: false });
    const draft = await sentCampaign({ status: 'draft' });
    for (const id of [String(hidden._id), String(draft._id), unknownId()]) {
      const response = await api().get(`/api/archive/en/campaigns/${id}`);
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    const hostile = await api().get('/api/archive/en/campaigns/%7B%22%24ne%22%3Anull%7D');
    expect(hostile.status).toBe(400);
    expect(hostile.body.error.fields).toHaveProperty('id');
    const language = await api().get('/api/archive/de');
    expect(language.status).toBe(400);
    expect(language.body.error.fields).toHaveProperty('locale');
  });

  it('takes a campaign off the archive when the staff unpublish it', async () => {
    const campaign = await sentCampaign();
    const id = String(campaign._id);

    const off = await as(ctx, manager).put(`/api/admin/campaigns/${id}/archive`, {
      publishToArchive: false,
    });

    expect(off.status).toBe(200);
    expect(off.body.publishToArchive).toBe(false);
    expect((await api().get(`/api/archive/en/campaigns/${id}`)).status).toBe(404);
    const bad = await as(ctx, manager).put(`/api/admin/campaigns/${id}/archive`, {
      publishToArchive: 'maybe',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toHaveProperty('publishToArchive');
    const anonymous = await api()
      .put(`/api/admin/campaigns/${id}/archive`)
      .send({ publishToArchive: true });
    expect(anonymous.status).toBe(401);
  });
});

describe('the archive feed', () => {
  it('is an Atom feed in the language, with one entry per published campaign written in it', async () => {
    const campaign = await sentCampaign();
    await sentCampaign({ publishToArchive: false, subject: 'Secret draft' });

    const response = await api().get('/api/archive/fr/feed.xml');

    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    const xml = response.text;
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="utf-8"\?>\s*<feed xmlns="http:\/\/www.w3.org\/2005\/Atom" xml:lang="fr">/,
    );
    // A strict XML parse: a malformed feed throws here.
    const document = new JSDOM(xml, { contentType: 'application/xml' }).window.document;
    expect(document.documentElement.getAttribute('xml:lang')).toBe('fr');
    expect(
      [...document.querySelectorAll('entry > title')].map((title) => title.textContent),
    ).toEqual(['Bonjour cher client']);
    expect(document.querySelector('entry > content')?.textContent).toBe(
      '<p>Bonjour cher client, voici le printemps.</p>',
    );
    expect(xml).toContain(`<id>https://agency.example/fr/newsletter/${String(campaign._id)}</id>`);
    expect(xml).toContain('<title type="html"><![CDATA[Bonjour cher client]]></title>');
    expect(xml).toContain(
      '<link rel="self" href="https://agency.example/fr/newsletter/feed.xml"/>',
    );
    expect(xml).not.toContain('Secret draft');
  });
});

describe('the archive pages', () => {
  it('read completely without a script: language, direction, head, content and links', async () => {
    const campaign = await sentCampaign({
      translations: [{ locale: 'ar', subject: 'مرحبا', content: '<p>نص الحملة</p>' }],
    });
    const id = String(campaign._id);

    const page = await api().get(`/api/archive/ar/pages/${id}`);

    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toMatch(
      /default-src 'none'; style-src 'sha256-/,
    );
    const html = page.text;
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('<title>مرحبا | أرشيف النشرة الإخبارية</title>');
    expect(html).toContain('<meta name="description" content="نص الحملة">');
    expect(html).toContain(
      `<link rel="canonical" href="https://agency.example/ar/newsletter/${id}">`,
    );
    expect(html).toContain(
      `<link rel="alternate" hreflang="en" href="https://agency.example/newsletter/${id}">`,
    );
    expect(html).toContain('<link rel="alternate" hreflang="x-default"');
    expect(html).toContain('type="application/atom+xml"');
    expect(html).toContain('href="https://agency.example/ar/newsletter/feed.xml"');
    expect(html).toContain('<h1>مرحبا</h1>');
    expect(html).toContain('<p>نص الحملة</p>');
    expect(html).toContain(`<a href="/newsletter/${id}" hreflang="en" lang="en">English</a>`);
    expect(html).not.toMatch(/<script/i);
  });

  it('lists the campaigns on the index page of each language', async () => {
    const campaign = await sentCampaign();
    const id = String(campaign._id);

    const english = (await api().get('/api/archive/en/pages')).text;
    const french = (await api().get('/api/archive/fr/pages')).text;
    const arabic = (await api().get('/api/archive/ar/pages')).text;

    expect(english).toContain(`<a href="/newsletter/${id}">Hello friend, spring is here</a>`);
    expect(english).toContain('<link rel="canonical" href="https://agency.example/newsletter">');
    expect(french).toContain(`<a href="/fr/newsletter/${id}">Bonjour cher client</a>`);
    expect(french).toContain('<h1>Archives de la newsletter</h1>');
    // Back to the site in the page's language: its home page and its privacy policy.
    expect(french).toContain('<a href="/fr/">Page d&#39;accueil</a>');
    expect(french).toContain('<a href="/fr/privacy">Politique de confidentialité</a>');
    expect(english).toContain('<a href="/">Home page</a>');
    expect(arabic).toContain('<a href="/ar/privacy">سياسة الخصوصية</a>');
    expect(arabic).toContain('لم تُنشر أي نشرة إخبارية بعد.');
    const missing = await api().get(`/api/archive/fr/pages/${unknownId()}`);
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<h1>Cette newsletter n&#39;est pas dans les archives.</h1>');
    expect(missing.text).toContain('<meta name="robots" content="noindex">');
  });

  it('lists the index and each published campaign, per language, in the archive sitemap', async () => {
    const campaign = await sentCampaign();
    await sentCampaign({ publishToArchive: false });
    const id = String(campaign._id);

    const { text, status } = await api().get('/api/archive/sitemap.xml');

    expect(status).toBe(200);
    expect(text.match(/<url>/g)).toHaveLength(5);
    expect(text).toContain('<loc>https://agency.example/ar/newsletter</loc>');
    expect(text).toContain(
      `<loc>https://agency.example/fr/newsletter/${id}</loc><lastmod>2026-03-01</lastmod>`,
    );
    expect(text).not.toContain(`/ar/newsletter/${id}`);
  });
});

describe('the archive rate limit', () => {
  it('counts every archive read per IP, pages and feed alike', async () => {
    const limited = await createTestContext({ env: { ARCHIVE_RATE_LIMIT_MAX: '2' } });
    try {
      const agent = () => request(limited.app.callback());
      const statuses = [
        (await agent().get('/api/archive/en')).status,
        (await agent().get('/api/archive/fr/pages')).status,
      ];
      const refused = await agent().get('/api/archive/ar/feed.xml');
      expect([...statuses, refused.status]).toEqual([200, 200, 429]);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
    } finally {
      await limited.close();
    }
  });
});
