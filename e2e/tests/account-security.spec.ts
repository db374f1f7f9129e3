/// <reference lib="dom" />
import { API_ROUTES } from '@agency/contracts';
import { expect, test, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { apiUrl, appUrl } from '../support/e2e-env';
import { waitForMail } from '../support/mail-catcher-client';
import {
  ADMIN_SECTIONS,
  demoAdminToken,
  runId,
  saveScreenshot,
  sidewaysOverflow,
  storeDemoAdminSession,
} from './admin-helpers';

const PASSWORD = 'an e2e passphrase here';

/** The code an authenticator app shows for this secret at this moment (plus `steps` periods). */
function totpCode(secret: string, steps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret.replace(/\s/g, '')) });
  return totp.generate({ timestamp: Date.now() + steps * 30_000 });
}

/** A staff account made by the demo admin through the API. */
async function createStaff(
  request: Parameters<typeof demoAdminToken>[0],
  role: 'manager' | 'viewer',
) {
  const username = `e2e-${role}-${runId()}`;
  const token = await demoAdminToken(request);
  const response = await request.post(apiUrl(API_ROUTES.users), {
    headers: { Authorization: `Bearer ${token}` },
    data: { username, email: `${username}@agency.test`, role, password: PASSWORD },
  });
  expect(response.status(), await response.text()).toBe(201);
  return { username, email: `${username}@agency.test` };
}

async function submitPassword(page: Page, username: string, password = PASSWORD) {
  await page.goto(appUrl('/admin/login'));
  await page.getByRole('textbox', { name: 'Username or email' }).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

test.describe('security headers and the content security policy', () => {
  const PUBLIC_PAGES = [
    '/',
    '/contact',
    '/services',
    '/services/meta-ads',
    '/services-dedicated',
    '/portfolio',
    '/thank-you',
    '/privacy',
    '/no-such-page',
    '/newsletter/confirm?token=not-a-token',
    '/newsletter/unsubscribe?token=not-a-token',
    '/admin/login',
    '/admin/forgot-password',
    '/admin/reset-password?token=not-a-token',
  ];

  async function violationsOn(page: Page, path: string): Promise<string[]> {
    const response = await page.goto(appUrl(path));
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    expect(response?.headers()['x-frame-options']).toBe('DENY');
    expect(response?.headers()['x-content-type-options']).toBe('nosniff');
    await page.waitForLoadState('networkidle');
    // Scroll through the page so every lazy section, image and font loads.
    await page.evaluate(async () => {
      for (let y = 0; y < document.body.scrollHeight; y += 600) {
        window.scrollTo(0, y);
        await new Promise((resolve) => setTimeout(resolve, 60));
      }
    });
    await page.waitForLoadState('networkidle');
    return page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
  }

  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => {
        seen.push(
          `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`,
        );
      });
    });
  });

  test('no public page breaks the policy', async ({ page }) => {
    for (const path of PUBLIC_PAGES) {
      expect({ path, violations: await violationsOn(page, path) }).toEqual({
        path,
        violations: [],
      });
    }
  });

  test('no admin page breaks the policy', async ({ page, request }) => {
    await storeDemoAdminSession(page, request);
    for (const { path } of ADMIN_SECTIONS) {
      expect({ path, violations: await violationsOn(page, path) }).toEqual({
        path,
        violations: [],
      });
    }
  });

  test('no other site can frame the sign-in page', async ({ page }) => {
    await page.goto('about:blank');
    await page.setContent(`<iframe src="${appUrl('/admin/login')}"></iframe>`);
    // Time for the sign-in page to render, were it allowed to.
    await page.waitForTimeout(3000);
    const frame = page.frames()[1];
    const framedText = await frame?.evaluate(() => document.body?.innerText ?? '').catch(() => '');
    expect(framedText ?? '').not.toContain('Admin Sign In');
  });
});

test.describe('two-factor sign-in', () => {
  test('a manager enrols after the password on a phone, keeps the codes, then signs in with a recovery code', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    const { username } = await createStaff(request, 'manager');

    await submitPassword(page, username);
    await expect(page.getByRole('heading', { name: 'Set up two-factor sign-in' })).toBeVisible();
    await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
    const secret = (await page.getByTestId('two-factor-secret').innerText()).trim();
    await saveScreenshot(page, 'two-factor-enrol-375');
    await page.getByLabel(/^Authentication code/).fill('000000');
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await expect(page.getByText('This code is not valid')).toBeVisible();
    await page.getByLabel(/^Authentication code/).fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm and continue' }).click();

    const codes = page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const recovery = (await codes.first().innerText()).trim();
    expect((await sidewaysOverflow(page)).overflow).toBeLessThanOrEqual(0);
    await saveScreenshot(page, 'two-factor-codes-375');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);

    await page.evaluate(() => window.localStorage.clear());
    await submitPassword(page, username);
    await expect(page.getByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel(/^Recovery code/).fill(recovery);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);

    // A recovery code works once.
    await page.evaluate(() => window.localStorage.clear());
    await submitPassword(page, username);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    await page.getByLabel(/^Recovery code/).fill(recovery);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('This code is not valid')).toBeVisible();
    // The next code of the app still works.
    await page.getByRole('button', { name: 'Use the authenticator app' }).click();
    await page.getByLabel(/^Authentication code/).fill(totpCode(secret, 1));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  });
});

test.describe('changing your own password in Settings', () => {
  test('keeps you signed in with the new token, and the old password no longer works', async ({
    page,
    request,
  }) => {
    const { username } = await createStaff(request, 'viewer');
    await submitPassword(page, username);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const before = await page.evaluate(() => window.localStorage.getItem('admin_token'));
    await page.goto(appUrl('/admin/settings'));
    // The page's own queries (two-factor status, sessions) have loaded: the change then invalidates them.
    await expect(page.getByRole('list', { name: 'Where you are signed in' })).toBeVisible();

    const newPassword = 'a newer e2e passphrase';
    await page.getByLabel(/^Current password/).fill(PASSWORD);
    await page.getByLabel(/^New password/).fill(newPassword);
    await page.getByLabel(/^Confirm the new password/).fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();

    await expect(page.getByText('Password changed')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Where you are signed in' })).toBeVisible();
    // The refetches that follow the change have come back; none ended the session.
    await page.waitForLoadState('networkidle');
    await expect(page.getByText('Session expired')).toHaveCount(0);
    await expect(page).toHaveURL(/\/admin\/settings$/);
    const after = await page.evaluate(() => window.localStorage.getItem('admin_token'));
    expect(after).not.toBe(before);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();

    const old = await request.post(apiUrl(API_ROUTES.login), {
      data: { username, password: PASSWORD },
    });
    expect(old.status()).toBe(401);
  });
});

test.describe('two-factor sign-in in Settings', () => {
  test('a session alone gets no secret and no recovery codes; the owner turns it on with the password', async ({
    page,
    request,
  }) => {
    const { username } = await createStaff(request, 'viewer');
    await submitPassword(page, username);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const token = await page.evaluate(() => window.localStorage.getItem('admin_token'));
    const withToken = { Authorization: `Bearer ${token ?? ''}` };

    // What a stolen token alone gets: refusals naming the password, no codes.
    const setup = await request.post(apiUrl(API_ROUTES.myTwoFactorSetup), {
      headers: withToken,
      data: {},
    });
    expect(setup.status()).toBe(400);
    expect(await setup.json()).toMatchObject({
      error: { fields: { password: 'Password is required' } },
    });
    const confirm = await request.post(apiUrl(API_ROUTES.myTwoFactorConfirm), {
      headers: withToken,
      data: { code: '123456' },
    });
    expect(confirm.status()).toBe(400);
    expect(JSON.stringify(await confirm.json())).not.toContain('recoveryCodes');

    await page.goto(appUrl('/admin/settings'));
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const dialog = page.getByRole('dialog', { name: 'Turn on two-factor sign-in' });
    await dialog.getByLabel(/^Your password/).fill('not the password');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog.getByText('The password is not correct')).toBeVisible();
    await expect(page.getByRole('img', { name: /QR code/ })).toHaveCount(0);
    await dialog.getByLabel(/^Your password/).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Continue' }).click();

    await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
    const secret = (await page.getByTestId('two-factor-secret').innerText()).trim();
    await page.getByLabel(/^Authentication code/).fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await expect(
      page.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem'),
    ).toHaveCount(10);
    await page.getByRole('button', { name: 'I have saved them' }).click();

    // Turning it off takes a current code instead of the password.
    await page.getByRole('button', { name: 'Turn off' }).click();
    const off = page.getByRole('dialog', { name: 'Turn off two-factor sign-in?' });
    await off
      .getByRole('button', { name: 'Use a code from your authenticator app instead' })
      .click();
    await off.getByLabel(/^Authentication code/).fill(totpCode(secret, 1));
    await off.getByRole('button', { name: 'Turn off' }).click();
    await expect(page.getByRole('button', { name: 'Turn on two-factor sign-in' })).toBeVisible();
  });
});

test.describe('forgot password', () => {
  test('the link in the mail sets a new password and signs out every session', async ({
    page,
    request,
  }) => {
    const { username, email } = await createStaff(request, 'viewer');
    const before = await request.post(apiUrl(API_ROUTES.login), {
      data: { username, password: PASSWORD },
    });
    const oldToken = ((await before.json()) as { token: string }).token;

    await page.goto(appUrl('/admin/login'));
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL(/\/admin\/forgot-password$/);
    await page.getByLabel(/^Email/).fill(email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await expect(page.getByRole('status')).toContainText(`If an account uses ${email}`);

    const mail = await waitForMail(request, { to: email, subject: 'Reset your password' });
    const link = /https?:\/\/\S+\/admin\/reset-password\?\S+/.exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();
    const newPassword = 'a brand new e2e passphrase';
    await page.goto(
      new URL(new URL(link ?? '').pathname + new URL(link ?? '').search, appUrl('/')).toString(),
    );
    await page.getByLabel(/^New password/).fill(newPassword);
    await page.getByLabel(/^Confirm the new password/).fill(newPassword);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect(page.getByRole('status')).toContainText('Your password is changed');

    const me = await request.get(apiUrl(API_ROUTES.me), {
      headers: { Authorization: `Bearer ${oldToken}` },
    });
    expect(me.status()).toBe(401);
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await submitPassword(page, username, newPassword);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);

    // The link works once.
    await page.goto(
      new URL(new URL(link ?? '').pathname + new URL(link ?? '').search, appUrl('/')).toString(),
    );
    await page.getByLabel(/^New password/).fill('yet another passphrase');
    await page.getByLabel(/^Confirm the new password/).fill('yet another passphrase');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect(page.getByRole('status')).toContainText('expired or was already used');
  });
});

test.describe('sessions', () => {
  test('ending another session in Settings signs that browser out on its next request', async ({
    browser,
    request,
  }) => {
    const { username } = await createStaff(request, 'viewer');
    const laptop = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const phone = await browser.newPage({ viewport: { width: 375, height: 812 } });
    try {
      for (const page of [phone, laptop]) {
        await submitPassword(page, username);
        await expect(page).toHaveURL(/\/admin\/dashboard$/);
      }
      // Settings on a phone: two-factor and sessions fit the width.
      await phone.goto(appUrl('/admin/settings'));
      await expect(
        phone.getByRole('list', { name: 'Where you are signed in' }).getByRole('listitem'),
      ).toHaveCount(2);
      await expect(phone.getByRole('button', { name: 'Turn on two-factor sign-in' })).toBeVisible();
      expect((await sidewaysOverflow(phone)).overflow).toBeLessThanOrEqual(0);
      await saveScreenshot(phone, 'settings-375');

      await laptop.goto(appUrl('/admin/settings'));
      const sessions = laptop.getByRole('list', { name: 'Where you are signed in' });
      await expect(sessions.getByRole('listitem')).toHaveCount(2);
      await expect(sessions.getByText('This browser')).toBeVisible();
      await saveScreenshot(laptop, 'settings-sessions-1280');
      // A session alone does not sign the others out: the dialog asks for the password.
      await laptop.getByRole('button', { name: 'Sign out everywhere else' }).click();
      const dialog = laptop.getByRole('dialog', { name: 'Sign out everywhere else?' });
      await expect(dialog.getByLabel(/^Your password/)).toBeFocused();
      await dialog.getByLabel(/^Your password/).fill('not the password');
      await dialog.getByRole('button', { name: 'Sign out' }).click();
      await expect(dialog.getByText('The password is not correct')).toBeVisible();
      // The wrong password ended nothing: the phone's session still answers.
      const phoneToken = await phone.evaluate(() => window.localStorage.getItem('admin_token'));
      const stillIn = await request.get(apiUrl(API_ROUTES.me), {
        headers: { Authorization: `Bearer ${phoneToken ?? ''}` },
      });
      expect(stillIn.status()).toBe(200);
      await dialog.getByLabel(/^Your password/).fill(PASSWORD);
      await dialog.getByRole('button', { name: 'Sign out' }).click();
      await expect(sessions.getByRole('listitem')).toHaveCount(1);

      await phone.goto(appUrl('/admin/settings'));
      await expect(phone).toHaveURL(/\/admin\/login/);
      await expect(laptop.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    } finally {
      await laptop.close();
      await phone.close();
    }
  });
});
