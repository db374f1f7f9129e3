import { expect, test, type Locator, type Page } from '@playwright/test';
import { appUrl } from '../support/e2e-env';
import { storeDemoAdminSession, waitForSection } from './admin-helpers';

const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
] as const;

const BUTTON =
  '<table data-button=""><tbody><tr><td data-button="">' +
  '<a data-button="" href="https://example.com/book">Book a call</a></td></tr></tbody></table>';

async function insertFromToolbar(
  page: Page,
  dialog: Locator,
  tool: 'Button' | 'Link',
  fields: [RegExp, string][],
) {
  await dialog.getByRole('button', { name: tool, exact: true }).click();
  const insert = page.getByRole('dialog', { name: /^Insert an? / });
  for (const [label, value] of fields) await insert.getByLabel(label).fill(value);
  await insert.getByRole('button', { name: 'Insert' }).click();
  await expect(insert).toBeHidden();
}

/** An image by its address: the image picker's Address tab, then its alt text. */
async function insertImageByAddress(page: Page, dialog: Locator, url: string, alt: string) {
  await dialog.getByRole('button', { name: 'Image', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Insert an image' });
  await picker.getByRole('tab', { name: 'Address' }).click();
  await picker.getByLabel(/^Image address/).fill(url);
  await picker.getByRole('button', { name: 'Use this address' }).click();
  await picker.getByLabel(/^Description/).fill(alt);
  await picker.getByRole('button', { name: 'Insert' }).click();
  await expect(picker).toBeHidden();
}

/**
 * What someone writing a campaign does in one go: types, adds a button,
 * goes on typing or adds an image at once, links a few words and ends the
 * sentence. Nothing inserted may be replaced by what comes next.
 */
test.describe('The campaign editor keeps what was just inserted', () => {
  for (const viewport of VIEWPORTS) {
    test(`at ${viewport.width} px: a button, then text or an image at once, and a period after a link`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize(viewport);
      await storeDemoAdminSession(page, request);
      await page.goto(appUrl('/admin/campaigns'));
      await waitForSection(page, 'Mail Manager');
      await page.getByRole('button', { name: 'New Campaign' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'New Campaign' });
      const editor = dialog.getByRole('textbox', { name: 'Content', exact: true });

      await editor.click();
      await page.keyboard.type('Spring offers');
      await insertFromToolbar(page, dialog, 'Button', [
        [/^Button link/, 'https://example.com/book'],
        [/^Button text/, 'Book a call'],
      ]);
      await expect(editor).toBeFocused();
      await page.keyboard.type('See you soon');
      await insertFromToolbar(page, dialog, 'Button', [
        [/^Button link/, 'https://example.com/book'],
        [/^Button text/, 'Book a call'],
      ]);
      await insertImageByAddress(page, dialog, 'https://example.com/spring.png', 'Spring');
      await page.keyboard.type('Read more on ');
      await insertFromToolbar(page, dialog, 'Link', [
        [/^Address/, 'https://example.com'],
        [/^Text/, 'our site'],
      ]);
      await page.keyboard.type('. Thanks');

      await dialog.getByRole('button', { name: 'HTML' }).click();
      const html = await dialog.getByLabel('Content (HTML source)').inputValue();
      expect(html).toBe(
        `<p>Spring offers</p>${BUTTON}<p>See you soon</p>${BUTTON}` +
          '<img src="https://example.com/spring.png" alt="Spring" style="max-width: 100%; height: auto;">' +
          '<p>Read more on <a target="_blank" rel="noopener noreferrer nofollow" ' +
          'href="https://example.com">our site</a>. Thanks</p>',
      );
    });
  }
});
