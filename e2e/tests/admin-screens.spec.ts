import { expect, test } from '@playwright/test';
import { appUrl } from '../support/e2e-env';
import {
  ADMIN_SECTIONS,
  runId,
  saveScreenshot,
  sidewaysOverflow,
  sendEnquiryByApi,
  storeDemoAdminSession,
  waitForSection,
} from './admin-helpers';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;

test.describe('admin sections on a desktop and on a phone', () => {
  test.beforeAll(async ({ request }) => {
    // Something to show in the lists and charts.
    await sendEnquiryByApi(request, `screens-${runId()}@example.com`);
  });

  for (const size of WIDTHS) {
    test(`every section renders at ${size.width} px (screenshots in artifacts/)`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize(size);
      await storeDemoAdminSession(page, request);
      for (const section of ADMIN_SECTIONS) {
        await page.goto(appUrl(section.path));
        await waitForSection(page, section.name);
        // Nothing sticks out sideways: the page never scrolls horizontally.
        const { overflow, outside } = await sidewaysOverflow(page);
        expect(
          overflow,
          `${section.path} at ${size.width} px scrolls sideways; sticking out: ${outside.join(', ')}`,
        ).toBeLessThanOrEqual(0);
        await saveScreenshot(page, `${section.path.split('/').pop() ?? 'admin'}-${size.width}`);
      }
    });
  }

  test('at 375 px the sections are in a drawer that closes once one is chosen', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl('/admin/dashboard'));
    await waitForSection(page, 'Dashboard');
    const nav = page.getByRole('navigation', { name: 'Admin sections' });
    await expect(nav).toBeHidden();

    await page.getByRole('button', { name: 'Open the menu' }).click();
    await expect(nav).toBeVisible();
    for (const section of ADMIN_SECTIONS) {
      await expect(nav.getByRole('link', { name: section.name })).toBeVisible();
    }
    await saveScreenshot(page, 'drawer-375');

    await nav.getByRole('link', { name: 'Clients' }).click();
    await expect(page).toHaveURL(/\/admin\/clients$/);
    await expect(nav).toBeHidden();
    await waitForSection(page, 'Clients');
  });

  test('the light/dark choice is kept as "dark" or "light" across a reload', async ({
    page,
    request,
  }) => {
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl('/admin/dashboard'));
    await waitForSection(page, 'Dashboard');
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Dark mode' }).click();
    await expect.poll(background).not.toBe(light);
    expect(await page.evaluate(() => window.localStorage.getItem('theme'))).toBe('dark');
    await page.reload();
    await waitForSection(page, 'Dashboard');
    await expect.poll(background).not.toBe(light);
    await saveScreenshot(page, 'dashboard-dark-1280');
  });

  test('the admin speaks Arabic, right to left', async ({ page, request }) => {
    await page.addInitScript(() => window.localStorage.setItem('i18nextLng', 'ar'));
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl('/admin/dashboard'));
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('main h1')).not.toHaveText('Dashboard');
    await saveScreenshot(page, 'dashboard-ar-1280');
  });
});
