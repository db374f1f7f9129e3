import { API_ROUTES, apiPath } from '@agency/contracts';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiUrl, appUrl } from '../support/e2e-env';
import { listMails } from '../support/mail-catcher-client';
import { startMailServer, stopMailServer } from '../support/mail-server-control';
import { demoAdminToken, runId, storeDemoAdminSession, waitForSection } from './admin-helpers';

const RECIPIENTS = 8;

/** A draft to a list of its own, one mail a second: still sending when the server goes. */
async function slowCampaign(request: APIRequestContext, id: string) {
  const headers = { Authorization: `Bearer ${await demoAdminToken(request)}` };
  const call = async (url: string, data: unknown, status: number) => {
    const response = await request.post(apiUrl(url), { headers, data });
    expect(response.status(), await response.text()).toBe(status);
    return (await response.json()) as Record<string, unknown>;
  };
  const list = await call(API_ROUTES.lists, { name: `Outage ${id}` }, 201);
  const listId = String(list.id);
  const addresses = Array.from({ length: RECIPIENTS }, (_, n) => `outage-${n}-${id}@example.com`);
  for (const email of addresses) {
    await call(apiPath(API_ROUTES.listMembers, { id: listId }), { email }, 201);
  }
  const draft = {
    name: `Outage campaign ${id}`,
    subject: `Through the outage ${id}`,
    content: '<p>Mail that waits for its server.</p>',
    recipientType: 'lists',
    listIds: [listId],
    ratePerMinute: 60,
  };
  await call(API_ROUTES.campaigns, draft, 201);
  return { ...draft, addresses };
}

/**
 * How many mails of this campaign each address has received. By the To
 * header: MailDev reads the mails caught before its restart back from their
 * files, without their envelopes.
 */
async function receivedBy(request: APIRequestContext, subject: string) {
  const counts = new Map<string, number>();
  for (const mail of await listMails(request, { subject })) {
    for (const { address } of mail.to) {
      counts.set(address.toLowerCase(), (counts.get(address.toLowerCase()) ?? 0) + 1);
    }
  }
  return counts;
}

test.describe('an SMTP outage in the middle of a send', () => {
  test.afterEach(async ({ request }) => {
    // Whatever happened, the next spec has its mail server.
    await startMailServer(request);
  });

  test('the dashboard and the row say so within 30 s, and it goes when sending resumes; nobody is mailed twice', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const campaign = await slowCampaign(request, runId());
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl('/admin/campaigns'));
    await waitForSection(page, 'Mail Manager');
    const banner = page.getByRole('alert').filter({ hasText: 'The mail server cannot be reached' });
    const row = page.getByRole('row').filter({ hasText: campaign.name });

    await row.getByRole('button', { name: `Send ${campaign.name}` }).click();
    const confirm = page.getByRole('dialog', { name: `Send “${campaign.name}”?` });
    await confirm.getByRole('button', { name: 'Send Now' }).click();
    await expect
      .poll(async () => (await receivedBy(request, campaign.subject)).size, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(2);
    await stopMailServer(request);

    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(row).toContainText('Waiting for the mail server');

    await startMailServer(request);
    await expect(banner).toBeHidden({ timeout: 30_000 });
    await expect(row).toContainText('Sent', { timeout: 30_000 });
    await expect(row).toContainText(`${RECIPIENTS} sent · 0 failed`);

    const received = await receivedBy(request, campaign.subject);
    expect([...received.keys()].sort()).toEqual([...campaign.addresses].sort());
    expect([...received.values()].every((count) => count === 1)).toBe(true);
  });
});
