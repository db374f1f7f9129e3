import { API_ROUTES, apiPath } from '@agency/contracts';
import { expect, test } from '@playwright/test';
import { apiUrl, appUrl } from '../support/e2e-env';
import { demoAdminToken, runId, storeDemoAdminSession, waitForSection } from './admin-helpers';

test.describe('Leads on a phone', () => {
  test('at 375 px a lead is deleted from its card, by keyboard, after confirming', async ({
    page,
    request,
  }) => {
    const token = await demoAdminToken(request);
    const name = `E2E lead ${runId()}`;
    const created = await request.post(apiUrl(API_ROUTES.leads), {
      headers: { Authorization: `Bearer ${token}` },
      data: { name, company: 'Phone Co' },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { id } = (await created.json()) as { id: string };

    await page.setViewportSize({ width: 375, height: 812 });
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl(`/admin/leads?search=${encodeURIComponent(name)}`));
    await waitForSection(page, 'Leads');
    const cards = page.getByRole('list', { name: 'Leads' });
    await expect(cards.getByText(name)).toBeVisible();

    const remove = cards.getByRole('button', { name: `Delete ${name}` });
    await expect(remove).toBeInViewport();
    await remove.focus();
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: `Delete ${name}?` });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete Lead' }).press('Enter');

    await expect(page.getByText('Lead deleted successfully')).toBeVisible();
    await expect(cards.getByText(name)).toHaveCount(0);
    const gone = await request.get(apiUrl(apiPath(API_ROUTES.lead, { id })), {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(gone.status()).toBe(404);
  });
});
