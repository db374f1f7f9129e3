import AxeBuilder from '@axe-core/playwright';
import { API_ROUTES, apiPath } from '@agency/contracts';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { apiUrl, appUrl } from '../support/e2e-env';
import { waitForMail } from '../support/mail-catcher-client';
import { demoAdminToken, runId } from './admin-helpers';

/**
 * The public newsletter archive on the real stack: a campaign published and
 * sent in three languages reads completely without JavaScript at /newsletter,
 * /fr/newsletter and /ar/newsletter, passes axe, and leaves the archive when
 * it is unpublished. The newsletter's own pages stay the SPA's.
 */
const LANGUAGES = [
  { code: 'en', prefix: '', dir: 'ltr', heading: 'Newsletter archive' },
  { code: 'fr', prefix: '/fr', dir: 'ltr', heading: 'Archives de la newsletter' },
  { code: 'ar', prefix: '/ar', dir: 'rtl', heading: 'أرشيف النشرة الإخبارية' },
] as const;
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Published {
  id: string;
  subjects: Record<string, string>;
  headers: Record<string, string>;
}

/** A campaign in three languages, published to the archive, sent to a list of one. */
async function publishedCampaign(request: APIRequestContext): Promise<Published> {
  const id = runId();
  const headers = { Authorization: `Bearer ${await demoAdminToken(request)}` };
  const post = async (url: string, data: unknown, status: number) => {
    const response = await request.post(apiUrl(url), { headers, data });
    expect(response.status(), await response.text()).toBe(status);
    return (await response.json()) as Record<string, unknown>;
  };
  const list = await post(API_ROUTES.lists, { name: `Archive ${id}` }, 201);
  const reader = `archive-${id}@example.com`;
  await post(apiPath(API_ROUTES.listMembers, { id: String(list.id) }), { email: reader }, 201);
  const subjects = { en: `Spring news ${id}`, fr: `Nouvelles ${id}`, ar: `أخبار ${id}` };
  const campaign = await post(
    API_ROUTES.campaigns,
    {
      name: `Archive ${id}`,
      subject: subjects.en,
      content: '<p>Hello {{firstName}}, our spring offers are here.</p>',
      defaultLocale: 'en',
      translations: [
        { locale: 'fr', subject: subjects.fr, content: '<p>Bonjour, voici nos offres.</p>' },
        { locale: 'ar', subject: subjects.ar, content: '<p>مرحبا، هذه عروضنا.</p>' },
      ],
      recipientType: 'lists',
      listIds: [String(list.id)],
      publishToArchive: true,
    },
    201,
  );
  const campaignId = String(campaign.id);
  await post(apiPath(API_ROUTES.campaignSend, { id: campaignId }), {}, 202);
  await waitForMail(request, { to: reader, subject: subjects.en }, { timeout: 60_000 });
  await expect
    .poll(
      async () => {
        const response = await request.get(apiUrl('/api/archive/en'));
        const { items } = (await response.json()) as { items: { id: string }[] };
        return items.some((item) => item.id === campaignId);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return { id: campaignId, subjects, headers };
}

async function withoutJavaScript<T>(browser: Browser, use: (page: Page) => Promise<T>) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

test('the archive reads without JavaScript in three languages, passes axe, and drops an unpublished campaign', async ({
  browser,
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const published = await publishedCampaign(request);

  for (const { code, prefix, dir, heading } of LANGUAGES) {
    await withoutJavaScript(browser, async (noScript) => {
      const index = await noScript.goto(appUrl(`${prefix}/newsletter`));
      expect(index?.status()).toBe(200);
      await expect(noScript.getByRole('heading', { level: 1 })).toHaveText(heading);
      await expect(noScript.locator('html')).toHaveAttribute('dir', dir);
      await expect(noScript.locator('link[type="application/atom+xml"]')).toHaveAttribute(
        'href',
        new RegExp(`${prefix}/newsletter/feed\\.xml$`),
      );
      await noScript.getByRole('link', { name: published.subjects[code] }).click();
      await expect(noScript).toHaveURL(new RegExp(`${prefix}/newsletter/${published.id}$`));
      await expect(noScript.getByRole('heading', { level: 1 })).toHaveText(
        published.subjects[code] ?? '',
      );
      await expect(noScript.locator('html')).toHaveAttribute('lang', code);
    });
    // axe runs as a script of its own: the page itself has none.
    await page.goto(appUrl(`${prefix}/newsletter/${published.id}`));
    const { violations } = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
    expect(violations.map((violation) => `${code}: ${violation.id} ${violation.help}`)).toEqual([]);
  }

  const feed = await request.get(appUrl('/fr/newsletter/feed.xml'));
  expect(feed.headers()['content-type']).toContain('application/atom+xml');
  expect(await feed.text()).toContain(published.subjects.fr);
  const robots = await (await request.get(appUrl('/robots.txt'))).text();
  expect(robots).toMatch(/^Sitemap: \S+\/newsletter\/sitemap\.xml$/m);
  expect(await (await request.get(appUrl('/newsletter/sitemap.xml'))).text()).toContain(
    `/ar/newsletter/${published.id}</loc>`,
  );
  // The site's footer leads to the archive in the page's language, and the archive back to the site.
  await page.goto(appUrl('/fr/privacy'));
  await page
    .getByRole('contentinfo')
    .getByRole('link', { name: 'Archives de la newsletter' })
    .click();
  await expect(page).toHaveURL(/\/fr\/newsletter$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Archives de la newsletter');
  await page.getByRole('link', { name: 'Politique de confidentialité' }).click();
  await expect(page).toHaveURL(/\/fr\/privacy$/);
  // The newsletter's own pages are still the SPA's.
  await page.goto(appUrl('/newsletter/confirm?token=x&lang=en'));
  await expect(page.locator('#root')).not.toBeEmpty();

  const off = await request.put(apiUrl(apiPath(API_ROUTES.campaignArchive, { id: published.id })), {
    headers: published.headers,
    data: { publishToArchive: false },
  });
  expect(off.status()).toBe(200);
  const gone = await request.get(appUrl(`/newsletter/${published.id}`));
  expect(gone.status()).toBe(404);
  expect(await gone.text()).toContain('This newsletter is not in the archive.');
});
