import { API_ROUTES } from '@agency/contracts';
import { expect, test } from '@playwright/test';
import { apiUrl, appUrl } from '../support/e2e-env';
import {
  demoAdminToken,
  runId,
  saveScreenshot,
  sidewaysOverflow,
  storeDemoAdminSession,
  waitForSection,
} from './admin-helpers';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;

/** 400 guests, one of them twice in another case, and two rows without a usable address. */
function guestFile(run: string): Buffer {
  const lines = ['Email;First name;Language'];
  for (let index = 0; index < 400; index += 1) {
    lines.push(`guest${index}.${run}@example.com;Guest ${index};${index % 2 ? 'fr' : 'en'}`);
  }
  lines.push(
    `GUEST7.${run.toUpperCase()}@EXAMPLE.COM;Again;en`,
    'not-an-address;Bad;en',
    ';Nobody;fr',
  );
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

test.describe('importing a CSV file into a list from the dashboard', () => {
  for (const size of WIDTHS) {
    test(`the progress reaches done at ${size.width} px, with its counts and error report`, async ({
      page,
      request,
    }) => {
      const run = runId();
      const token = await demoAdminToken(request);
      const listName = `Expo ${run} ${size.width}`;
      const created = await request.post(apiUrl(API_ROUTES.lists), {
        headers: { Authorization: `Bearer ${token}` },
        data: { name: listName },
      });
      expect(created.status(), await created.text()).toBe(201);

      await page.setViewportSize(size);
      await storeDemoAdminSession(page, request);
      await page.goto(appUrl('/admin/audience/imports'));
      await waitForSection(page, 'Audience');

      await page
        .getByLabel('Choose a CSV file')
        .setInputFiles({ name: `expo-${run}.csv`, mimeType: 'text/csv', buffer: guestFile(run) });
      await expect(
        page.getByRole('heading', { name: `Map the columns of expo-${run}.csv` }),
      ).toBeVisible();
      await expect(page.getByRole('table', { name: 'The first rows of the file' })).toContainText(
        `guest0.${run}@example.com`,
      );
      await page.getByRole('combobox', { name: /^List/ }).click();
      await page.getByRole('option', { name: listName }).click();
      expect((await sidewaysOverflow(page)).overflow).toBeLessThanOrEqual(0);
      await page.getByRole('button', { name: 'Start Import' }).click();

      await expect(page.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
      await expect(page.getByText('Import complete')).toBeVisible({ timeout: 30_000 });
      await expect(page.getByText('403 of 403 rows read')).toBeVisible();
      await expect(page.locator('[data-count="created"]')).toHaveText('400');
      await expect(page.locator('[data-count="skipped"]')).toHaveText('1');
      await expect(page.locator('[data-count="invalid"]')).toHaveText('2');
      const { overflow, outside } = await sidewaysOverflow(page);
      expect(overflow, `sticking out: ${outside.join(', ')}`).toBeLessThanOrEqual(0);
      await saveScreenshot(page, `audience-import-${size.width}`);

      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download error report (3 rows)' }).click();
      const report = await (await download).createReadStream();
      const chunks: Buffer[] = [];
      for await (const chunk of report) chunks.push(chunk as Buffer);
      const lines = Buffer.concat(chunks)
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      expect(lines).toEqual([
        'row,value,reason',
        `401,GUEST7.${run.toUpperCase()}@EXAMPLE.COM,duplicate-in-file`,
        '402,not-an-address,invalid-email',
        '403,",Nobody,fr",missing-email',
      ]);

      // The list counts its new members (a table row on a desktop, a card on a phone).
      await page.getByRole('tab', { name: 'Lists' }).click();
      await expect(page).toHaveURL(/\/admin\/audience$/);
      await expect(
        page.locator('[role="row"], li').filter({ hasText: listName }).first(),
      ).toContainText('400');
    });
  }
});
