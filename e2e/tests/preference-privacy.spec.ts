import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { API_ROUTES, type PersonDataExportDto } from '@agency/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiUrl } from '../support/e2e-env';
import { waitForMail } from '../support/mail-catcher-client';
import { confirmedSubscriber, manageUrlFromCampaignMail, siteLinkIn } from '../support/manage-link';
import { demoAdminToken, runId, sidewaysOverflowAt } from './admin-helpers';

/**
 * A subscriber manages themselves from a campaign mail, on the real site,
 * API, worker and MailDev: lists and language, then their data downloaded and
 * erased through the links mailed to them. Six page loads in all.
 */

/** A public list named in each language, made through the admin API. */
async function publicList(request: APIRequestContext, name: string): Promise<string> {
  const token = await demoAdminToken(request);
  const created = await request.post(apiUrl(API_ROUTES.lists), {
    headers: { Authorization: `Bearer ${token}` },
    data: { name, public: true, nameEn: name, nameFr: `${name} (fr)`, nameAr: `${name} (ar)` },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** The page's own content (the header and footer are scanned elsewhere) meets WCAG 2.1 AA. */
async function expectNoBlockingViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page })
    .include('main')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  expect(
    violations
      .filter(({ impact }) => impact === 'serious' || impact === 'critical')
      .map(({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/** Presses one of the page's data buttons and reads where the link went. */
async function askForLink(page: Page, button: string, email: string) {
  await page.getByRole('button', { name: button }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'We have sent a link to' }),
  ).toContainText(email);
}

test('a subscriber changes lists and language, downloads their data, then erases it', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const run = runId();
  const email = `self.${run}@example.com`;
  const listName = `Offers ${run}`;
  await publicList(request, listName);
  await confirmedSubscriber(request, email);
  const manageUrl = await manageUrlFromCampaignMail(request, {
    email,
    run,
    adminToken: await demoAdminToken(request),
  });

  // Lists and language, saved and read back.
  await page.goto(manageUrl);
  await expect(page.getByRole('heading', { name: 'Manage your subscription' })).toBeVisible();
  await page.getByRole('checkbox', { name: listName }).check();
  await page.getByRole('radio', { name: 'Français' }).check();
  await page.getByRole('button', { name: 'Save my choices' }).click();
  await expect(page.getByText('Your choices are saved.')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: listName })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Français' })).toBeChecked();

  // The download: a link mailed in the language just chosen, then a JSON file.
  await askForLink(page, 'Download my data', email);
  const downloadMail = await waitForMail(request, {
    to: email,
    subject: 'Téléchargez vos données',
  });
  await page.goto(siteLinkIn(downloadMail, '/newsletter/privacy/download'));
  await expect(page.getByRole('heading', { name: 'Téléchargez vos données' })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Télécharger mes données' }).click(),
  ]);
  const data = JSON.parse(readFileSync(await download.path(), 'utf8')) as PersonDataExportDto;
  expect(data.email).toBe(email);
  expect(data.subscription).toMatchObject({ status: 'confirmed', locale: 'fr' });
  expect(data.listMemberships.map((member) => member.list.name)).toContain(listName);
  await expect(page.getByRole('heading', { name: 'Vos données sont téléchargées' })).toBeVisible();
  // The same records, to read on the page, which meets WCAG 2.1 AA.
  await expect(page.getByRole('region', { name: 'Listes' })).toContainText(listName);
  await expect(page.getByRole('region', { name: 'Abonnement à la newsletter' })).toContainText(
    'Abonné',
  );
  await expectNoBlockingViolations(page);
  // ...and at 375 px, without a sideways scroll.
  const { overflow, outside } = await sidewaysOverflowAt(page, { width: 375, height: 800 });
  expect(overflow, `the data page scrolls sideways: ${outside.join(', ')}`).toBeLessThanOrEqual(0);
  await expectNoBlockingViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The erasure: a link, a statement and a last confirmation, then the worker's mail.
  await page.goto(manageUrl);
  await askForLink(page, 'Erase my data', email);
  const erasureMail = await waitForMail(request, {
    to: email,
    subject: "Confirmez l'effacement de vos données",
  });
  const erasureUrl = siteLinkIn(erasureMail, '/newsletter/privacy/erase');
  await page.goto(erasureUrl);
  await expect(page.getByRole('heading', { name: 'Effacer vos données ?' })).toBeVisible();
  await expect(page.getByText(/votre abonnement à la newsletter/)).toContainText(email);
  await page.getByRole('button', { name: 'Effacer définitivement mes données' }).click();
  await expect(page.getByRole('heading', { name: "L'effacement a commencé" })).toBeVisible();
  await waitForMail(
    request,
    { to: email, subject: 'Vos données ont été effacées' },
    { timeout: 30_000 },
  );

  // Nothing is left to show, and the erasure link does not work twice.
  await page.goto(manageUrl);
  await expect(page.getByRole('heading', { name: 'Manage your subscription' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: listName })).not.toBeChecked();
  await expect(page.getByRole('radio', { name: 'English' })).toBeChecked();
  const token = new URL(erasureUrl).searchParams.get('token');
  const reused = await request.post(apiUrl(API_ROUTES.privacyLinkErasure), { data: { token } });
  expect(reused.status()).toBe(410);
});
