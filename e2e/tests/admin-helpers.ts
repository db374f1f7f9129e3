/// <reference lib="dom" />
// Page functions (evaluate, poll) run in the browser: they use its globals.
import { API_ROUTES } from '@agency/contracts';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { apiUrl, appUrl, demoAdmin } from '../support/e2e-env';

/** Where the admin screenshots go for people to look at (git-ignored artifacts/). */
export const ADMIN_SCREENSHOT_DIR = resolve(
  __dirname,
  '..',
  '..',
  'artifacts',
  'screenshots',
  'admin',
);

/** The sections of the sidebar, by their menu text and address. */
export const ADMIN_SECTIONS = [
  { name: 'Dashboard', path: '/admin/dashboard' },
  { name: 'Mail Manager', path: '/admin/campaigns' },
  { name: 'Audience', path: '/admin/audience' },
  { name: 'User Management', path: '/admin/users' },
  { name: 'Contacts', path: '/admin/contacts' },
  { name: 'Clients', path: '/admin/clients' },
  { name: 'Leads', path: '/admin/leads' },
  { name: 'Analytics', path: '/admin/analytics' },
  { name: 'Settings', path: '/admin/settings' },
] as const;

/** A suffix no other run uses, so what a test creates can be told apart. */
export function runId(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Signs in through the sign-in page as the demo admin the stack seeds, and lands on the dashboard. */
export async function signInAsDemoAdmin(page: Page) {
  const { username, password } = demoAdmin();
  await page.goto(appUrl('/admin/login'));
  await page.getByRole('textbox', { name: 'Username or email' }).fill(username);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByText('Welcome back!')).toBeVisible();
}

/** The demo admin's token from the API, for the calls a spec makes itself. */
export async function demoAdminToken(request: APIRequestContext): Promise<string> {
  const { username, password } = demoAdmin();
  const response = await request.post(apiUrl(API_ROUTES.login), {
    data: { username, password },
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { token: string };
  return body.token;
}

/**
 * Stores the demo admin's session as the sign-in page does (admin_token,
 * admin_user), without going through the page: for specs about other screens.
 * It is written from a static file of the site's origin, where the app does
 * not run: on an app page that is still loading, the app could pick the
 * session up and start calls with it that a spec's next step then races.
 */
export async function storeDemoAdminSession(page: Page, request: APIRequestContext) {
  const { username, password } = demoAdmin();
  const response = await request.post(apiUrl(API_ROUTES.login), {
    data: { username, password },
  });
  expect(response.status()).toBe(200);
  const { token, user } = (await response.json()) as { token: string; user: unknown };
  await page.goto(appUrl('/favicon.svg'));
  await page.evaluate(
    ([storedToken, storedUser]) => {
      window.localStorage.setItem('admin_token', storedToken);
      window.localStorage.setItem('admin_user', storedUser);
    },
    [token, JSON.stringify(user)] as const,
  );
}

/** Sends an enquiry through the public API, as the contact form does. */
export async function sendEnquiryByApi(
  request: APIRequestContext,
  email: string,
  { newsletterConsent = false }: { newsletterConsent?: boolean } = {},
) {
  const response = await request.post(apiUrl(API_ROUTES.contactForm), {
    data: {
      firstName: 'Rim',
      lastName: 'Gharbi',
      email,
      service: 'web-design',
      message: `An e2e enquiry from ${email}: we would like a new website.`,
      // Ticked "send me news": campaigns to enquiry contacts mail only those.
      newsletterConsent,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** Waits until the section's heading shows and nothing on the page is still loading. */
export async function waitForSection(page: Page, heading: string) {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await waitUntilLoaded(page);
}

/** Waits until nothing in the page's main region is still loading (any language). */
export async function waitUntilLoaded(page: Page) {
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          document.querySelectorAll(
            // Determinate bars (service shares, send progress) are content, not loading.
            'main [role="progressbar"]:not([aria-valuenow]), main .MuiSkeleton-root, main [aria-busy="true"]',
          ).length,
      ),
    )
    .toBe(0);
}

/**
 * How far the page scrolls sideways, and the outermost elements whose right
 * edge passes the viewport's: what a failure has to name to be fixable.
 */
export async function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const root = document.documentElement;
    const limit = root.clientWidth;
    const outside: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const { right, width } = element.getBoundingClientRect();
      const parentRight = element.parentElement?.getBoundingClientRect().right ?? 0;
      if (width > 0 && right > limit && parentRight <= limit) {
        const classes = element.getAttribute('class')?.split(/\s+/).slice(0, 3).join('.') ?? '';
        outside.push(
          `<${element.tagName.toLowerCase()} class="${classes}"> right ${right.toFixed(1)}`,
        );
      }
    }
    return { overflow: root.scrollWidth - limit, outside };
  });
}

/**
 * Resizes the viewport and measures the sideways scroll once the layout has
 * caught up: screens that switch layout through `useMediaQuery` re-render
 * after the resize event, so a measurement taken at once can still see the
 * wide layout squeezed into the narrow viewport.
 */
export async function sidewaysOverflowAt(page: Page, size: { width: number; height: number }) {
  await page.setViewportSize(size);
  await page.waitForFunction((width) => window.innerWidth === width, size.width);
  let previous = await sidewaysOverflow(page);
  for (let attempt = 0; attempt < 20; attempt += 1) {
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    const current = await sidewaysOverflow(page);
    if (
      current.overflow === previous.overflow &&
      current.outside.length === previous.outside.length
    ) {
      return current;
    }
    previous = current;
  }
  return previous;
}

/** A full-page screenshot under artifacts/screenshots/admin/. */
export async function saveScreenshot(page: Page, name: string) {
  mkdirSync(ADMIN_SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(ADMIN_SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
