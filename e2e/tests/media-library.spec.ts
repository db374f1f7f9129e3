import { API_ROUTES, apiPath, type CampaignDto, type Page as ListPage } from '@agency/contracts';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiUrl, appUrl, demoAdmin } from '../support/e2e-env';
import { waitForMail } from '../support/mail-catcher-client';
import { solidPng } from '../support/test-image';
import { demoAdminToken, runId, storeDemoAdminSession, waitForSection } from './admin-helpers';

/**
 * An image staff have on their laptop goes into a campaign, by a drop on the
 * editor (desktop) or through the picker's upload (phone), and the mail shows
 * it: MailDev receives the test mail, its <img> names the library's absolute
 * URL, and that URL answers with the image.
 */

/** A library image's public address, as the editor writes it into the content. */
const LIBRARY_IMAGE = /https?:\/\/[^"]+\/api\/media\/[a-f0-9]{64}\.(png|jpe?g|gif)/;

/** Opens a new campaign and names it; answers the dialog and its content editor. */
async function newCampaign(page: Page, name: string) {
  await page.goto(appUrl('/admin/campaigns'));
  await waitForSection(page, 'Mail Manager');
  await page.getByRole('button', { name: 'New Campaign' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New Campaign' });
  await dialog.getByLabel(/^Campaign name/).fill(name);
  await dialog.getByLabel(/^Email subject/).fill(name);
  const editor = dialog.getByRole('textbox', { name: 'Content', exact: true });
  await editor.click();
  await page.keyboard.type('Our spring collection');
  return { dialog, editor };
}

/** The picker's last step: the alt text, then the image goes in. */
async function describeImage(page: Page, alt: string) {
  const picker = page.getByRole('dialog', { name: 'Insert an image' });
  await picker.getByLabel(/^Description/).fill(alt);
  await picker.getByRole('button', { name: 'Insert' }).click();
  await expect(picker).toBeHidden();
}

/**
 * Drops an image file on the editor, as one dragged from the desktop, at the
 * end of the line of `target` (a block of the editor).
 */
async function dropImage(
  page: Page,
  editor: Locator,
  target: Locator,
  { png, name }: { png: Buffer; name: string },
) {
  const box = await target.boundingBox();
  if (!box) throw new Error('the drop target is not on screen');
  const point = { clientX: box.x + box.width - 4, clientY: box.y + box.height / 2 };
  const transfer = await page.evaluateHandle(
    ({ base64, fileName }) => {
      const bytes = Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], fileName, { type: 'image/png' }));
      return data;
    },
    { base64: png.toString('base64'), fileName: name },
  );
  await editor.dispatchEvent('dragover', { dataTransfer: transfer, ...point });
  await editor.dispatchEvent('drop', { dataTransfer: transfer, ...point });
}

/** The editor's blocks in order: a paragraph by its text, an image as `image`. */
function blocksOf(editor: Locator): Promise<string[]> {
  return editor.evaluate((root) =>
    Array.from(root.children).map((block) =>
      block.matches('img') || block.querySelector('img')
        ? 'image'
        : (block.textContent ?? '').trim(),
    ),
  );
}

/** Uploads through the image picker: the toolbar's Image, its Upload tab, the file chooser. */
async function uploadWithPicker(page: Page, dialog: Locator, png: Buffer, name: string) {
  await dialog.getByRole('button', { name: 'Image', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Insert an image' });
  await picker.getByRole('tab', { name: 'Upload' }).click();
  const chooser = page.waitForEvent('filechooser');
  await picker.getByRole('button', { name: /Drop images here, or choose files/ }).click();
  await (await chooser).setFiles({ name, mimeType: 'image/png', buffer: png });
}

/** Saves the campaign to the enquiry contacts and answers its id. */
async function saveCampaign(
  page: Page,
  dialog: Locator,
  request: APIRequestContext,
  headers: Record<string, string>,
  name: string,
): Promise<string> {
  await dialog.getByRole('combobox', { name: 'Recipients' }).click();
  await page.getByRole('option', { name: /^Enquiry contacts/ }).click();
  await dialog.getByRole('button', { name: 'Create Campaign' }).click();
  await expect(page.getByText('Campaign created successfully')).toBeVisible();
  const response = await request.get(apiUrl(API_ROUTES.campaigns), {
    headers,
    params: { search: name },
  });
  const { items } = (await response.json()) as ListPage<CampaignDto>;
  const campaign = items.find((item) => item.name === name);
  if (!campaign) throw new Error(`the campaign ${name} was not stored`);
  return campaign.id;
}

/** Sends a test of the campaign to the demo admin, and checks the image the mail shows. */
async function expectImageInTestMail(
  request: APIRequestContext,
  headers: Record<string, string>,
  { id, name, alt }: { id: string; name: string; alt: string },
) {
  const { email } = demoAdmin();
  const sent = await request.post(apiUrl(apiPath(API_ROUTES.campaignTest, { id })), {
    headers,
    data: { email },
  });
  expect(sent.status(), await sent.text()).toBeLessThan(300);
  const mail = await waitForMail(request, { to: email, subject: name }, { timeout: 60_000 });
  const image = new RegExp(`<img[^>]*src="(${LIBRARY_IMAGE.source})"[^>]*>`).exec(mail.html ?? '');
  expect(image, 'the mail holds the library image').not.toBeNull();
  const [tag, url] = image ?? [];
  expect(tag).toContain(`alt="${alt}"`);
  expect(tag).toMatch(/width="\d+"/);
  const served = await request.get(url ?? '');
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toMatch(/^image\/(png|jpeg)$/);
}

/** Schedules the campaign a month ahead: it stays owed for the whole run, and never goes out. */
async function scheduleLater(
  request: APIRequestContext,
  headers: Record<string, string>,
  id: string,
) {
  const scheduledAt = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();
  const response = await request.post(apiUrl(apiPath(API_ROUTES.campaignSchedule, { id })), {
    headers,
    data: { scheduledAt },
  });
  expect(response.status(), await response.text()).toBe(200);
}

test.describe('The media library in the campaign editor', () => {
  test('at 1280 px an image dropped on the editor is uploaded, described, and shown in the mail', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    const headers = { Authorization: `Bearer ${await demoAdminToken(request)}` };
    await storeDemoAdminSession(page, request);
    const run = runId();
    const name = `Media drop ${run}`;
    const { dialog, editor } = await newCampaign(page, name);

    // Two paragraphs, the cursor at the end of the second; the image is
    // dropped on the first, and goes where it was dropped, not at the cursor.
    await page.keyboard.press('Enter');
    await page.keyboard.type('See you soon');
    await dropImage(page, editor, editor.locator('p').first(), {
      png: await solidPng(640, 400, `drop${run}`),
      name: `spring-${run}.png`,
    });
    await describeImage(page, 'Spring flowers');
    await expect(editor.locator('img')).toHaveAttribute('src', LIBRARY_IMAGE);
    await expect(editor.locator('img')).toHaveAttribute('width', '600');
    expect(await blocksOf(editor)).toEqual(['Our spring collection', 'image', 'See you soon']);
    // The cursor waits right after the image.
    await page.keyboard.type('Welcome. ');
    await expect
      .poll(() => blocksOf(editor))
      .toEqual(['Our spring collection', 'image', 'Welcome. See you soon']);

    const id = await saveCampaign(page, dialog, request, headers, name);
    await expectImageInTestMail(request, headers, { id, name, alt: 'Spring flowers' });

    // The library lists it (newest first), with the campaign that shows it.
    await page.goto(appUrl('/admin/media'));
    await waitForSection(page, 'Media library');
    const card = page.getByRole('article').filter({
      has: page.getByRole('img', { name: `spring-${run}` }),
    });
    await expect(card).toContainText('640 × 400 px');
    await expect(card.getByRole('link', { name: `campaign ${name}` })).toBeVisible();

    // Scheduled while the screen shows it as a draft: the API refuses the
    // forced delete (409), and the dialog says why and keeps the image.
    await scheduleLater(request, headers, id);
    try {
      await card.getByRole('button', { name: `Delete spring-${run}` }).click();
      const confirm = page.getByRole('dialog', { name: `Delete spring-${run}?` });
      await confirm.getByRole('button', { name: 'Delete anyway' }).click();
      const refusal = confirm.getByRole('alert');
      await expect(refusal).toContainText('This image is in mails still to be sent by:');
      await expect(refusal.getByRole('link', { name: `campaign ${name}` })).toBeVisible();
      await expect(confirm.getByRole('button', { name: 'Delete anyway' })).toBeDisabled();
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();
      await expect(card).toBeVisible();
    } finally {
      await request.post(apiUrl(apiPath(API_ROUTES.campaignUnschedule, { id })), { headers });
    }
  });

  test('at 375 px an image uploaded through the picker goes in the mail', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const headers = { Authorization: `Bearer ${await demoAdminToken(request)}` };
    await storeDemoAdminSession(page, request);
    const run = runId();
    const name = `Media picker ${run}`;
    const { dialog, editor } = await newCampaign(page, name);

    await uploadWithPicker(page, dialog, await solidPng(320, 200, `pick${run}`), `logo-${run}.png`);
    await describeImage(page, 'Agency logo');
    await expect(editor.locator('img')).toHaveAttribute('src', LIBRARY_IMAGE);
    await expect(editor.locator('img')).toHaveAttribute('width', '320');

    const id = await saveCampaign(page, dialog, request, headers, name);
    await expectImageInTestMail(request, headers, { id, name, alt: 'Agency logo' });
  });
});
