import { expect, test } from '@playwright/test';
import { appUrl } from '../support/e2e-env';
import { runId, sidewaysOverflow, storeDemoAdminSession, waitForSection } from './admin-helpers';

/** The Agency section of Settings: what an admin saves is in the store, not in the page. */
test.describe('the agency settings', () => {
  test('an admin saves the postal address and finds it again after a reload', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl('/admin/settings'));
    await waitForSection(page, 'Settings');
    const form = page.getByRole('form', { name: 'Agency' });
    const postalAddress = form.getByRole('textbox', { name: /^Postal address/ });
    const address = `${runId()} Avenue Habib Bourguiba, 1000 Tunis`;
    await postalAddress.fill(address);
    await form.getByRole('button', { name: 'Save agency settings' }).click();
    await expect(page.getByText('Agency settings saved')).toBeVisible();

    await page.reload();
    await waitForSection(page, 'Settings');
    await expect(
      page.getByRole('form', { name: 'Agency' }).getByRole('textbox', { name: /^Postal address/ }),
    ).toHaveValue(address);
    await expect(
      page.getByRole('form', { name: 'Agency' }).getByText(/Last changed by/),
    ).toBeVisible();
  });

  test('the section fits a 375 px phone, right to left in Arabic', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await storeDemoAdminSession(page, request);
    await page.evaluate(() => window.localStorage.setItem('i18nextLng', 'ar'));
    await page.goto(appUrl('/admin/settings'));
    const form = page.getByRole('form', { name: 'الوكالة' });
    await expect(form.getByRole('button', { name: 'حفظ إعدادات الوكالة' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    const { overflow, outside } = await sidewaysOverflow(page);
    expect(overflow, `scrolls sideways; sticking out: ${outside.join(', ')}`).toBeLessThanOrEqual(
      0,
    );
  });
});
