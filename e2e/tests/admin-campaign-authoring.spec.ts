import { API_ROUTES, wallTimeOf, type CampaignSettingsDto } from '@agency/contracts';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiUrl, appUrl } from '../support/e2e-env';
import { waitForMail } from '../support/mail-catcher-client';
import {
  demoAdminToken,
  runId,
  sendEnquiryByApi,
  storeDemoAdminSession,
  waitForSection,
} from './admin-helpers';

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
] as const;

/** The campaign's row on a desktop, its card on a phone. */
function campaignEntry(page: Page, name: string, phone: boolean): Locator {
  return phone
    ? page.getByRole('list', { name: 'Campaigns' }).getByRole('listitem').filter({ hasText: name })
    : page.getByRole('row').filter({ hasText: name });
}

/** Fills the schedule dialog with `at` on the agency's clock and saves it. */
async function scheduleAt(page: Page, entry: Locator, name: string, at: Date, timeZone: string) {
  await entry.getByRole('button', { name: `Schedule ${name}` }).click();
  const schedule = page.getByRole('dialog', { name: `Schedule “${name}”` });
  await expect(schedule).toContainText(timeZone);
  const local = wallTimeOf(at, timeZone);
  await schedule.getByLabel(/^Date/).fill(local.date);
  await schedule.getByLabel(/^Time/).fill(local.time);
  await schedule.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(page.getByText('Campaign scheduled')).toBeVisible();
  await expect(entry).toContainText('Scheduled');
  await expect(entry).toContainText(/Goes /);
}

/** Scheduled an hour ahead, then taken back to a draft from the same dialog. */
async function scheduleAndTakeBack(page: Page, entry: Locator, name: string, timeZone: string) {
  const inAnHour = new Date(Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000);
  await scheduleAt(page, entry, name, inAnHour, timeZone);
  await entry.getByRole('button', { name: `Schedule ${name}` }).click();
  const schedule = page.getByRole('dialog', { name: `Schedule “${name}”` });
  await schedule.getByRole('button', { name: 'Unschedule (back to draft)' }).click();
  await expect(page.getByText('Campaign back to draft')).toBeVisible();
  await expect(entry).toContainText('Draft');
  await expect(entry).not.toContainText(/Goes /);
}

/**
 * Scheduled a minute ahead: nothing goes before its time; then it goes, and
 * the list follows it to the end without a reload.
 */
async function scheduleAndWatchItGo(
  page: Page,
  request: APIRequestContext,
  entry: Locator,
  name: string,
  subject: string,
  timeZone: string,
) {
  const at = new Date(Math.ceil((Date.now() + 45_000) / 60_000) * 60_000);
  await scheduleAt(page, entry, name, at, timeZone);
  await expect(entry).toContainText('Sent', { timeout: at.getTime() - Date.now() + 120_000 });
  expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
  await expect(entry).toContainText(/[1-9]\d* sent · 0 failed/);
  const received = await waitForMail(request, { subject });
  expect(received.subject).toBe(subject);
}

/**
 * What a staff member who knows no HTML does: writes a campaign in English
 * and Arabic in the editor, looks at the Arabic mail at a phone's width,
 * schedules it a minute ahead on the agency's clock, and watches it go (on
 * a phone, schedules it and takes it back to a draft: the wait for the
 * minute is the same on both widths, so one watch is enough).
 */
test.describe('Writing, previewing and scheduling a campaign', () => {
  test.beforeAll(async ({ request }) => {
    // Ticked "send me news": the campaign below goes to the enquiry contacts who did.
    await sendEnquiryByApi(request, `authoring-${runId()}@example.com`, {
      newsletterConsent: true,
    });
  });

  for (const viewport of VIEWPORTS) {
    const ending = viewport.width < 600 ? 'scheduled, then back to draft' : 'scheduled, sent';
    test(`at ${viewport.width} px: written in the editor, previewed in Arabic at 375 px, ${ending}`, async ({
      page,
      request,
    }) => {
      test.setTimeout(240_000);
      const phone = viewport.width < 600;
      await page.setViewportSize(viewport);
      const token = await demoAdminToken(request);
      const settings = (await (
        await request.get(apiUrl(API_ROUTES.campaignSettings), {
          headers: { Authorization: `Bearer ${token}` },
        })
      ).json()) as CampaignSettingsDto;
      const id = runId();
      const name = `E2E scheduled ${id}`;
      const subject = `Spring packs ${id}`;

      await storeDemoAdminSession(page, request);
      await page.goto(appUrl('/admin/campaigns'));
      await waitForSection(page, 'Mail Manager');
      await page.getByRole('button', { name: 'New Campaign' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'New Campaign' });
      await dialog.getByLabel(/^Campaign name/).fill(name);
      await dialog.getByLabel(/^Email subject/).fill(subject);

      // The toolbar, not HTML: a heading, a paragraph with a variable, a button.
      const editor = dialog.getByRole('textbox', { name: 'Content', exact: true });
      await editor.click();
      await dialog.getByRole('button', { name: 'Heading', exact: true }).click();
      await page.keyboard.type('Our spring packs');
      await page.keyboard.press('Enter');
      await page.keyboard.type('Dear ');
      await dialog.getByRole('button', { name: 'Variables' }).click();
      // Picking a variable closes the menu before it inserts anything, so a
      // menu still open 2 s after the click means the click did not reach the
      // item (the menu was still settling under load): click it again.
      const variables = page.getByRole('menu', { name: 'Variables' });
      await expect(async () => {
        if (await variables.isVisible()) {
          await variables.getByRole('menuitem', { name: /^First name/ }).click({ timeout: 5_000 });
        }
        await expect(variables).toBeHidden({ timeout: 2_000 });
      }).toPass({ timeout: 30_000 });
      await page.keyboard.type(', three packs for the season.');
      await dialog.getByRole('button', { name: 'Button', exact: true }).click();
      const insert = page.getByRole('dialog', { name: 'Insert a button' });
      await insert.getByLabel(/^Button link/).fill('https://example.com/book');
      await insert.getByLabel(/^Button text/).fill('Book a call');
      await insert.getByRole('button', { name: 'Insert' }).click();
      await expect(editor.locator('h1')).toHaveText('Our spring packs');
      await expect(editor.getByText('Book a call')).toBeVisible();

      await dialog.getByRole('combobox', { name: 'Recipients' }).click();
      await page.getByRole('option', { name: /^Enquiry contacts/ }).click();

      await dialog.getByRole('tab', { name: 'Arabic' }).click();
      await dialog.getByLabel(/^Email subject/).fill(`عروض الربيع ${id}`);
      const arabic = dialog.getByRole('textbox', { name: 'Content', exact: true });
      await expect(arabic).toHaveAttribute('dir', 'rtl');
      await arabic.click();
      await page.keyboard.type('عروض الربيع لهذا الموسم');

      // The preview: the Arabic mail, rendered by the server, at 375 px.
      const preview = dialog.getByRole('region', { name: 'Preview' });
      await preview.getByRole('button', { name: 'Phone (375 px)' }).click();
      const frame = preview.getByTitle('Mail preview in Arabic');
      await expect(frame).toHaveAttribute('data-width', 'phone');
      await frame.scrollIntoViewIfNeeded();
      const box = await frame.boundingBox();
      expect(Math.round(box?.width ?? 0)).toBe(375);
      const mail = page.frameLocator('iframe[title="Mail preview in Arabic"]');
      await expect(mail.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(mail.getByText('عروض الربيع لهذا الموسم')).toBeVisible();
      await expect(preview.getByTestId('preview-subject')).toHaveText(`عروض الربيع ${id}`);

      await dialog.getByRole('button', { name: 'Create Campaign' }).click();
      await expect(page.getByText('Campaign created successfully')).toBeVisible();
      await expect(dialog).toBeHidden();

      if (phone) {
        await scheduleAndTakeBack(page, campaignEntry(page, name, phone), name, settings.timeZone);
      } else {
        await scheduleAndWatchItGo(
          page,
          request,
          campaignEntry(page, name, phone),
          name,
          subject,
          settings.timeZone,
        );
      }
    });
  }
});
