import { API_ROUTES, apiPath, type CampaignReportDto } from '@agency/contracts';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiUrl, appUrl, mailCatcherUrl } from '../support/e2e-env';
import { waitForMail } from '../support/mail-catcher-client';
import { demoAdminToken, runId, storeDemoAdminSession, waitForSection } from './admin-helpers';

/**
 * A desktop browser as readers have it: the headless agent Playwright
 * announces is, rightly, one of the machine rules' automated agents.
 */
const READER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Chrome/131.0.0.0 Safari/537.36';

/** A tracked campaign to a list of one reader, sent: its id, the reader and the link. */
async function sentCampaign(request: APIRequestContext, id: string) {
  const headers = { Authorization: `Bearer ${await demoAdminToken(request)}` };
  const post = async (url: string, data: unknown, status: number) => {
    const response = await request.post(apiUrl(url), { headers, data });
    expect(response.status(), await response.text()).toBe(status);
    return (await response.json()) as Record<string, unknown>;
  };
  const list = await post(API_ROUTES.lists, { name: `Results ${id}` }, 201);
  const reader = `reader-${id}@example.com`;
  await post(apiPath(API_ROUTES.listMembers, { id: String(list.id) }), { email: reader }, 201);
  const link = `https://offers.example.com/spring-${id}`;
  const campaign = await post(
    API_ROUTES.campaigns,
    {
      name: `Results ${id}`,
      subject: `Spring offers ${id}`,
      content: `<p>Hello, see <a href="${link}">our spring offer</a>.</p>`,
      recipientType: 'lists',
      listIds: [String(list.id)],
      tracking: { opens: true, clicks: true },
    },
    201,
  );
  const campaignId = String(campaign.id);
  await post(apiPath(API_ROUTES.campaignSend, { id: campaignId }), {}, 202);
  return {
    campaignId,
    name: `Results ${id}`,
    reader,
    link,
    subject: `Spring offers ${id}`,
    headers,
  };
}

test.describe('campaign results', () => {
  test.use({ userAgent: READER_AGENT });

  test('a reader opens the mail from MailDev with images on and clicks its link: the report counts one person each, and the click map shows the link', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const sent = await sentCampaign(request, runId());
    const mail = await waitForMail(
      request,
      { to: sent.reader, subject: sent.subject },
      {
        timeout: 60_000,
      },
    );
    // The link in the mail is a tracking link of the site, never the target itself.
    expect(mail.html).toContain('/api/t/c/');
    expect(mail.html).not.toContain(sent.link);

    // The offer's site is not on this machine: the browser is answered for it.
    await page.route(`${sent.link}*`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<title>Spring offer</title><h1>Offer</h1>',
      }),
    );
    await page.goto(new URL(`/email/${mail.id}/html`, mailCatcherUrl()).toString());
    await page.getByRole('link', { name: 'our spring offer' }).click();
    await expect(page).toHaveURL(sent.link);

    // Counted by the worker once the API's buffer hands the events over.
    const report = async () => {
      const response = await request.get(
        apiUrl(apiPath(API_ROUTES.campaignReport, { id: sent.campaignId })),
        { headers: sent.headers },
      );
      expect(response.status()).toBe(200);
      return (await response.json()) as CampaignReportDto;
    };
    await expect
      .poll(
        async () => {
          const { opens, clicks } = await report();
          return [opens.people.unique, clicks.people.unique];
        },
        { timeout: 30_000 },
      )
      .toEqual([1, 1]);
    const counted = await report();
    expect(counted.opens.machines).toEqual({ unique: 0, total: 0 });
    expect(counted.clicks.scanners).toEqual({ unique: 0, total: 0 });
    expect(counted.links).toEqual([
      expect.objectContaining({ url: sent.link, people: { unique: 1, total: 1 } }),
    ]);

    await storeDemoAdminSession(page, request);
    await page.goto(appUrl(`/admin/campaigns/${sent.campaignId}/report`));
    await waitForSection(page, `Results: ${sent.name}`);
    const engagement = page.getByRole('region', { name: 'Opens and clicks' });
    for (const table of ['Opens', 'Clicks']) {
      await expect(
        engagement.getByRole('table', { name: table }).getByRole('row', { name: /^People/ }),
      ).toHaveText(/People\s*1\s*1/);
    }
    const frame = page.getByTitle("The mail with each link's share of people's clicks");
    await expect(frame).toHaveAttribute('srcdoc', /data-click-share[^>]*>100%</);
  });

  test('a forged tracking link answers the not-found page and leads nowhere', async ({
    request,
  }) => {
    const forged = 'A'.repeat(66);
    const response = await request.get(appUrl(apiPath(API_ROUTES.trackClick, { token: forged })), {
      maxRedirects: 0,
    });
    expect(response.status()).toBe(404);
    expect(response.headers().location).toBeUndefined();
    expect(response.headers()['content-type']).toContain('text/html');
  });
});
