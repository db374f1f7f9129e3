import { API_ROUTES, apiPath } from '@agency/contracts';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiUrl, appUrl } from '../support/e2e-env';
import {
  demoAdminToken,
  runId,
  saveScreenshot,
  sendEnquiryByApi,
  sidewaysOverflow,
  storeDemoAdminSession,
  waitForSection,
} from './admin-helpers';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;

/** A list with one member, tagged, whose address also sent an enquiry: three records, one person. */
async function seedPerson(request: APIRequestContext, email: string, listName: string) {
  const headers = { Authorization: `Bearer ${await demoAdminToken(request)}` };
  const created = await request.post(apiUrl(API_ROUTES.lists), {
    headers,
    data: { name: listName },
  });
  expect(created.status(), await created.text()).toBe(201);
  const list = (await created.json()) as { id: string };
  const member = await request.post(apiUrl(apiPath(API_ROUTES.listMembers, { id: list.id })), {
    headers,
    data: { email, firstName: 'Rim', lastName: 'Gharbi', locale: 'fr', tags: ['expo'] },
  });
  expect(member.status(), await member.text()).toBe(201);
  await sendEnquiryByApi(request, email);
  return list.id;
}

test.describe('the people screen and a person page', () => {
  for (const size of WIDTHS) {
    test(`find a person by domain, tag them, and read their page at ${size.width} px`, async ({
      page,
      request,
    }) => {
      const run = runId();
      const domain = `people-${run}-${size.width}.example.com`;
      const email = `rim@${domain}`;
      const listName = `People ${run} ${size.width}`;
      await seedPerson(request, email, listName);

      await page.setViewportSize(size);
      await storeDemoAdminSession(page, request);
      await page.goto(appUrl(`/admin/people?search=${encodeURIComponent(`@${domain}`)}`));
      await waitForSection(page, 'People');
      const { overflow, outside } = await sidewaysOverflow(page);
      expect(
        overflow,
        `the people screen scrolls sideways: ${outside.join(', ')}`,
      ).toBeLessThanOrEqual(0);

      const rows =
        size.width < 768
          ? page.getByRole('list', { name: 'People' })
          : page.getByRole('grid', { name: 'People' });
      await expect(rows).toContainText(email);
      await expect(rows).toContainText(listName);
      await saveScreenshot(page, `people-${size.width}`);

      // Tag the one person found, in the list they belong to.
      if (size.width < 768) {
        await page.getByRole('checkbox', { name: `Choose ${email}` }).check();
      } else {
        await rows
          .getByRole('checkbox', { name: /select row/i })
          .first()
          .check();
      }
      await page.getByRole('button', { name: 'Tag', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Tag the chosen people' });
      await dialog.getByRole('combobox', { name: 'List' }).click();
      await page.getByRole('option', { name: listName }).click();
      await dialog.getByRole('textbox', { name: 'Tag' }).fill('vip');
      await dialog.getByRole('button', { name: 'Tag', exact: true }).click();
      await expect(page.getByText('1 changed, 0 left as they were')).toBeVisible();

      await page
        .getByRole('link', { name: `Open the page of ${email}` })
        .or(page.getByRole('link', { name: new RegExp(email.replace(/\./g, '\\.')) }))
        .first()
        .click();
      await waitForSection(page, email);
      const lists = page.getByRole('region', { name: 'Lists', exact: true });
      await expect(lists).toContainText(listName);
      await expect(lists).toContainText('expo, vip');
      await expect(page.getByRole('region', { name: 'Enquiries' })).toContainText(
        'Web Design & Development',
      );
      await expect(page.getByText('No campaign mail was sent to this address.')).toBeVisible();
      await saveScreenshot(page, `person-${size.width}`);
    });
  }

  test('an address nobody holds says so, with a way back', async ({ page, request }) => {
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl(`/admin/people/${encodeURIComponent(`nobody-${runId()}@example.com`)}`));
    await waitForSection(page, 'Nobody with this address is held');
    await page.getByRole('link', { name: 'Back to people' }).click();
    await waitForSection(page, 'People');
  });
});
