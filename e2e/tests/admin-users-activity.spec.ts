import { expect, test, type APIRequestContext, type Locator } from '@playwright/test';
import { MongoClient } from 'mongodb';
import { API_ROUTES, apiPath } from '@agency/contracts';
import { apiUrl, appUrl, storeOfStack } from '../support/e2e-env';
import { demoAdminToken, runId, storeDemoAdminSession, waitForSection } from './admin-helpers';

/** Whether `inner` lies wholly inside `outer` on screen (1 px of rounding allowed). */
async function liesWithin(inner: Locator, outer: Locator): Promise<boolean> {
  const [a, b] = await Promise.all([inner.boundingBox(), outer.boundingBox()]);
  if (!a || !b) return false;
  return (
    a.x >= b.x - 1 &&
    a.y >= b.y - 1 &&
    a.x + a.width <= b.x + b.width + 1 &&
    a.y + a.height <= b.y + b.height + 1
  );
}

/**
 * A manager with two-factor on: the row with the most actions (edit, reset
 * two-factor, sign out everywhere, delete). Enrolled in the store, as an
 * authenticator app would have left it: the table only reads that it is on.
 */
async function managerWithTwoFactor(request: APIRequestContext) {
  const username = `e2e-2fa-${runId()}`;
  const response = await request.post(apiUrl(API_ROUTES.users), {
    headers: { Authorization: `Bearer ${await demoAdminToken(request)}` },
    data: {
      username,
      email: `${username}@agency.test`,
      role: 'manager',
      password: 'an e2e passphrase here',
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const client = await MongoClient.connect(storeOfStack().mongodbUri);
  try {
    await client
      .db()
      .collection('users')
      .updateOne(
        { username },
        {
          $set: {
            twoFactor: { secret: 'JBSWY3DPEHPK3PXP', enabledAt: new Date(), lastStep: 0 },
          },
        },
      );
  } finally {
    await client.close();
  }
  return username;
}

test.describe('the Users table', () => {
  test('at 1280 px shows every row action inside its row, the Actions column in view', async ({
    page,
    request,
  }) => {
    const enrolled = await managerWithTwoFactor(request);
    await page.setViewportSize({ width: 1280, height: 800 });
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl(`/admin/users?search=${enrolled}`));
    await waitForSection(page, 'User Management');
    const grid = page.getByRole('grid', { name: 'Users' });
    await expect(grid.getByRole('row').nth(1)).toBeVisible();
    // Its four actions on one line, inside the row, like every row's.
    await expect(
      grid.getByRole('row').filter({ hasText: enrolled }).getByRole('button'),
    ).toHaveCount(4);

    await expect(grid.getByRole('columnheader', { name: 'Actions' })).toBeVisible();
    expect(await liesWithin(grid.getByRole('columnheader', { name: 'Actions' }), grid)).toBe(true);
    const rows = grid.getByRole('row').filter({ has: page.getByRole('gridcell') });
    for (const row of await rows.all()) {
      for (const button of await row.getByRole('button').all()) {
        expect(await liesWithin(button, row), `${await button.getAttribute('aria-label')}`).toBe(
          true,
        );
      }
      await expect(row.getByRole('button', { name: /^Delete / })).toBeVisible();
    }
  });

  test('at 375 px shows every action of each account on its card', async ({ page, request }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl('/admin/users'));
    await waitForSection(page, 'User Management');
    const cards = page.getByRole('list', { name: 'Users' }).getByRole('listitem');
    await expect(cards.first()).toBeVisible();
    for (const card of await cards.all()) {
      for (const name of [/^Edit /, /^Sign .* out everywhere$/, /^Delete /]) {
        const button = card.getByRole('button', { name });
        if ((await button.count()) === 0) continue;
        await button.scrollIntoViewIfNeeded();
        expect(await liesWithin(button, card)).toBe(true);
        const box = await button.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);
      }
    }
  });
});

/** Creates a client, then edits its notes to `notes`: two entries of the log. */
async function clientWithNotes(
  request: APIRequestContext,
  token: string,
  name: string,
  notes: string,
) {
  const headers = { Authorization: `Bearer ${token}` };
  const client = {
    companyName: name,
    contactPerson: 'Sami Trabelsi',
    email: `sami.${runId()}@example.com`,
    status: 'potential',
  };
  const created = await request.post(apiUrl(API_ROUTES.clients), { headers, data: client });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const updated = await request.put(apiUrl(apiPath(API_ROUTES.client, { id })), {
    headers,
    data: { ...client, notes },
  });
  expect(updated.status()).toBe(200);
}

test('the activity log reads as changes, page by page, filtered by action', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const token = await demoAdminToken(request);
  const run = runId();
  // Eleven edits: more than one page of ten.
  for (let index = 0; index < 11; index += 1) {
    await clientWithNotes(
      request,
      token,
      `Activity ${run} ${index}`,
      `<p>Call them <strong>before</strong> noon</p>`,
    );
  }
  await storeDemoAdminSession(page, request);
  await page.goto(appUrl('/admin/users'));
  await waitForSection(page, 'User Management');
  const log = page.getByRole('region', { name: 'Activity log' });

  await log.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'updated a client' }).click();
  // The entries, not the changes listed inside each.
  const entries = log.getByRole('list', { name: 'Activity log' }).locator(':scope > li');
  await expect(entries).toHaveCount(10);
  const newest = entries.first();
  await expect(newest).toContainText(`updated a client: Activity ${run} 10`);
  // The field by its name, the markup reduced to its words, the old value "(empty)".
  await expect(newest).toContainText('Notes: (empty) → Call them before noon');
  await expect(newest).not.toContainText('<strong>');
  await expect(newest).not.toContainText('notes');
  for (const entry of await entries.all()) await expect(entry).toContainText('updated a client');

  await log.getByRole('button', { name: 'Older' }).click();
  await expect(entries.first()).toContainText(`Activity ${run} 0`);
  await log.getByRole('button', { name: 'Newer' }).click();
  await expect(entries.first()).toContainText(`Activity ${run} 10`);
});
