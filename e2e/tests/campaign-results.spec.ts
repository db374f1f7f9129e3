import { API_ROUTES, apiPath } from '@agency/contracts';
import { expect, test } from '@playwright/test';
import { appUrl, mailCatcherUrl } from '../support/e2e-env';
import {
  READER_AGENT,
  reportOf,
  sendTrackedCampaign,
  waitForOnePersonEach,
} from '../support/tracked-campaign';
import { storeDemoAdminSession, waitForSection } from './admin-helpers';

test.describe('campaign results', () => {
  test.use({ userAgent: READER_AGENT });

  test('a reader opens the mail from MailDev with images on and clicks its link: the report counts one person each, and the click map shows the link', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const sent = await sendTrackedCampaign(request);
    // The link in the mail is a tracking link of the site, never the target itself.
    expect(sent.mail.html).toContain('/api/t/c/');
    expect(sent.mail.html).not.toContain(sent.link);

    // The offer's site is not on this machine: the browser is answered for it.
    await page.route(`${sent.link}*`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<title>Spring offer</title><h1>Offer</h1>',
      }),
    );
    await page.goto(new URL(`/email/${sent.mail.id}/html`, mailCatcherUrl()).toString());
    await page.getByRole('link', { name: 'our spring offer' }).click();
    await expect(page).toHaveURL(sent.link);

    // Counted by the worker once the API's buffer hands the events over.
    await waitForOnePersonEach(request, sent);
    const counted = await reportOf(request, sent);
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

    // The campaign's one list: its mail, and the reader's open and click.
    expect(counted.sources).toEqual([
      expect.objectContaining({
        kind: 'list',
        listName: sent.name,
        delivered: 1,
        opened: 1,
        clicked: 1,
      }),
    ]);
    await expect(
      page
        .getByRole('table', { name: 'Results per list, segment or source' })
        .getByRole('row', { name: new RegExp(sent.name) }),
    ).toHaveText(new RegExp(`${sent.name}\\s*1\\s*1\\s*100%\\s*1\\s*100%`));

    // The mailbox's one-click unsubscribe (RFC 8058) counts in this campaign's report, once.
    const listUnsubscribe = String(sent.mail.headers['list-unsubscribe'] ?? '');
    const oneClick = /<(https?:[^>]+)>/.exec(listUnsubscribe)?.[1];
    expect(oneClick, listUnsubscribe).toBeDefined();
    for (let time = 0; time < 2; time += 1) {
      const left = await request.post(oneClick ?? '', {
        form: { 'List-Unsubscribe': 'One-Click' },
      });
      expect(left.status()).toBe(200);
    }
    expect((await reportOf(request, sent)).delivery.unsubscribes).toBe(1);
  });

  test("a privacy proxy's prefetch counts as a machine's open, and a scanner's probe and trap click as scanners', not people's", async ({
    request,
  }) => {
    const sent = await sendTrackedCampaign(request);
    const html = sent.mail.html ?? '';
    const pixel = /src="([^"]*\/api\/t\/o\/[^"]+)"/.exec(html)?.[1];
    // The offer's link, then the hidden trap link that closes the mail.
    const links = [...html.matchAll(/href="([^"]*\/api\/t\/c\/[^"]+)"/g)].map((match) => match[1]);
    expect(pixel).toBeDefined();
    expect(links).toHaveLength(2);

    // Apple's proxies fetch every image as the mail lands, with a bare agent.
    const prefetch = await request.get(pixel ?? '', { headers: { 'User-Agent': 'Mozilla/5.0' } });
    expect(prefetch.status()).toBe(200);
    // A gateway probes the offer's link with HEAD, and follows the trap no person can see.
    const asGateway = { headers: { 'User-Agent': READER_AGENT }, maxRedirects: 0 };
    expect((await request.head(links[0] ?? '', asGateway)).status()).toBe(302);
    expect((await request.get(links[1] ?? '', asGateway)).status()).toBe(200);

    await expect
      .poll(
        async () => {
          const { opens, clicks } = await reportOf(request, sent);
          return [opens.machines.unique, clicks.scanners.total];
        },
        { timeout: 30_000, message: "the worker counts the proxy's open and the scanner's clicks" },
      )
      .toEqual([1, 2]);
    const counted = await reportOf(request, sent);
    expect(counted.opens.people).toEqual({ unique: 0, total: 0 });
    expect(counted.clicks.people).toEqual({ unique: 0, total: 0 });
    expect(counted.rates).toEqual({ open: 0, click: 0 });
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
