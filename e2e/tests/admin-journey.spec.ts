import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { appUrl, demoAdmin } from '../support/e2e-env';
import {
  runId,
  sendEnquiryByApi,
  signInAsDemoAdmin,
  storeDemoAdminSession,
  waitForSection,
} from './admin-helpers';

test.describe('admin dashboard', () => {
  test('the demo admin signs in with the credentials the sign-in page offers', async ({ page }) => {
    await page.goto(appUrl('/admin'));
    await expect(page).toHaveURL(/\/admin\/login/);
    // The stack runs in demo mode: the hint box shows the seeded account.
    const { username, password } = demoAdmin();
    await expect(page.getByText('Demo account', { exact: true })).toBeVisible();
    await expect(page.getByText(`Username: ${username}`)).toBeVisible();
    await expect(page.getByText(`Password: ${password}`)).toBeVisible();

    await signInAsDemoAdmin(page);
    await waitForSection(page, 'Dashboard');
    const stored = await page.evaluate(() => ({
      token: window.localStorage.getItem('admin_token'),
      user: window.localStorage.getItem('admin_user'),
    }));
    expect(stored.token).toBeTruthy();
    expect(JSON.parse(stored.user ?? '{}')).toMatchObject({ username, role: 'admin' });
  });

  test('a wrong password is refused with the spec toast', async ({ page }) => {
    await page.goto(appUrl('/admin/login'));
    await page.getByRole('textbox', { name: 'Username or email' }).fill(demoAdmin().username);
    await page.getByLabel(/^Password/).fill(`not-${demoAdmin().password}`);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();

    await expect(page.getByText('Login failed')).toBeVisible();
    await expect(page.getByText('Invalid username or password')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/login$/);
  });

  test('an admin creates a user, who can then sign in with the viewer role', async ({
    page,
    request,
  }) => {
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl('/admin/users'));
    await waitForSection(page, 'User Management');
    const username = `e2e-${runId()}`;
    const password = 'a long e2e passphrase';

    await page.getByRole('button', { name: 'Add User' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await dialog.getByLabel(/^Username/).fill(username);
    await dialog.getByLabel(/^Email/).fill(`${username}@agency.test`);
    await dialog.getByLabel(/^Password/).fill(password);
    await dialog.getByRole('button', { name: 'Create User' }).click();

    await expect(page.getByText('User created successfully')).toBeVisible();
    await expect(dialog).toBeHidden();
    await page.getByRole('searchbox', { name: 'Search' }).fill(username);
    const row = page.getByRole('row').filter({ hasText: `${username}@agency.test` });
    await expect(row).toContainText('Viewer');

    // The new account is real: it signs in, and sees no User Management.
    await page.evaluate(() => window.localStorage.clear());
    await page.goto(appUrl('/admin/login'));
    await page.getByRole('textbox', { name: 'Username or email' }).fill(username);
    await page.getByLabel(/^Password/).fill(password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const nav = page.getByRole('navigation', { name: 'Admin sections' });
    await expect(nav.getByRole('link', { name: 'Contacts' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'User Management' })).toHaveCount(0);
  });

  test('an admin adds a client with the spec modal', async ({ page, request }) => {
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl('/admin/clients'));
    await waitForSection(page, 'Clients');
    const company = `E2E Olive Oil ${runId()}`;

    await page.getByRole('button', { name: 'Add Client' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add New Client' });
    await dialog.getByLabel(/^Company Name/).fill(company);
    await dialog.getByLabel(/^Contact Person/).fill('Sami Trabelsi');
    await dialog.getByLabel(/^Email/).fill('sami@olive.example');
    await dialog.getByLabel(/^Website/).fill('https://olive.example');
    await dialog.getByLabel(/^Monthly Budget/).fill('1500.50');
    await dialog.getByRole('button', { name: 'Add Client' }).click();

    await expect(page.getByText('Client created successfully')).toBeVisible();
    await expect(dialog).toBeHidden();
    await page.getByRole('searchbox', { name: 'Search' }).fill(company);
    const row = page.getByRole('row').filter({ hasText: company });
    await expect(row).toContainText('Sami Trabelsi');
    await expect(row).toContainText('1,500.50');

    // Reloading shows what the API stored, not what the page remembered.
    await page.reload();
    await page.getByRole('searchbox', { name: 'Search' }).fill(company);
    await expect(page.getByRole('row').filter({ hasText: company })).toBeVisible();
  });

  test('an admin exports the contacts as a CSV file from the API', async ({ page, request }) => {
    const email = `export-${runId()}@example.com`;
    await sendEnquiryByApi(request, email);
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl('/admin/contacts'));
    await waitForSection(page, 'Contacts');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;

    expect(file.suggestedFilename()).toMatch(/^contacts-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await file.path(), 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toContain(email);
  });

  test('every section has its own address: links, reload and back work', async ({
    page,
    request,
  }) => {
    await storeDemoAdminSession(page, request);
    await page.goto(appUrl('/admin/dashboard'));
    await waitForSection(page, 'Dashboard');
    const nav = page.getByRole('navigation', { name: 'Admin sections' });

    await nav.getByRole('link', { name: 'Clients' }).click();
    await expect(page).toHaveURL(/\/admin\/clients$/);
    await waitForSection(page, 'Clients');
    await nav.getByRole('link', { name: 'Leads' }).click();
    await expect(page).toHaveURL(/\/admin\/leads$/);
    await page.reload();
    await waitForSection(page, 'Leads');
    await page.goBack();
    await expect(page).toHaveURL(/\/admin\/clients$/);
    await waitForSection(page, 'Clients');
  });

  test('signing out says "Logged out", forgets the session and goes to sign-in', async ({
    page,
  }) => {
    await signInAsDemoAdmin(page);

    await page.getByRole('button', { name: 'Account menu' }).click();
    const menu = page.getByRole('menu');
    await expect(menu).toContainText(demoAdmin().email);
    await menu.getByRole('menuitem', { name: 'Sign Out' }).click();

    await expect(page.getByText('Logged out', { exact: true })).toBeVisible();
    await expect(page.getByText('You have been successfully logged out')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/login$/);
    expect(await page.evaluate(() => window.localStorage.getItem('admin_token'))).toBeNull();
    await page.goto(appUrl('/admin/clients'));
    await expect(page).toHaveURL(/\/admin\/login/);
  });

  test('an expired session goes to sign-in once and comes back to the page', async ({
    page,
    request,
  }) => {
    await storeDemoAdminSession(page, request);
    // A token the API no longer accepts, as after expiry or a password change.
    await page.evaluate(() => window.localStorage.setItem('admin_token', 'expired.token.value'));
    await page.goto(appUrl('/admin/contacts?search=nobody'));

    await expect(page).toHaveURL(/\/admin\/login/);
    await expect(page.getByText('Session expired')).toHaveCount(1);
    await page.getByRole('textbox', { name: 'Username or email' }).fill(demoAdmin().username);
    await page.getByLabel(/^Password/).fill(demoAdmin().password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();

    await expect(page).toHaveURL(/\/admin\/contacts\?search=nobody$/);
    await waitForSection(page, 'Contacts');
  });
});
