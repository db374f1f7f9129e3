// @ts-check
/**
 * The dashboard as a phone user meets it: the built site served the way
 * `npm start` serves it (vite preview of frontend/dist, proxying /api to the
 * bench's API), Playwright's Chromium at 375 x 812, and the time from
 * submitting the sign-in form to the stats cards showing their numbers.
 */
import { join, resolve } from 'node:path';
import { chromium } from 'playwright';
import { startService, waitUntilReady } from '../../scripts/lib/processes.mjs';
import { LOOPBACK } from '../../scripts/lib/services.mjs';
import { freePort } from './processes.mjs';
import { BENCH_ADMIN } from './stack-processes.mjs';

const root = resolve(import.meta.dirname, '..', '..');
const frontendDir = join(root, 'frontend');

/** The phone the dashboard's figures are timed on. */
export const PHONE_VIEWPORT = { width: 375, height: 812 };

/**
 * Serves frontend/dist as `npm start` does (scripts/lib/stack.mjs: vite
 * preview, /api proxied to `apiUrl`) and opens a headless Chromium.
 * @param {string} apiUrl
 */
export async function openSite(apiUrl) {
  const port = await freePort();
  const web = startService({
    name: 'web',
    command: join(frontendDir, 'node_modules', '.bin', 'vite'),
    args: ['preview', '--port', String(port), '--strictPort', '--host', LOOPBACK],
    cwd: frontendDir,
    env: { ...process.env, API_PROXY_TARGET: apiUrl },
    echo: false,
  });
  const url = `http://${LOOPBACK}:${port}`;
  await waitUntilReady([`http-get://${LOOPBACK}:${port}/`], [web], 30_000);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    url,
    /**
     * Signs in `runs` times, each in a fresh browser context (no session, no
     * cache: a phone signing in), and times each from the click on "Sign In"
     * to the stats cards' numbers on screen: the enquiries' total as
     * `expectedTotal`, and no card still showing its placeholder.
     * @param {{ runs: number, expectedTotal: number }} options
     * @returns {Promise<number[]>} the times, in ms
     */
    async timeSignIns({ runs, expectedTotal }) {
      const times = [];
      for (let run = 0; run < runs; run += 1) {
        times.push(await timeOneSignIn(browser, url, expectedTotal));
      }
      return times;
    },
    close: async () => {
      await browser.close();
      await web.stop();
    },
  };
}

/**
 * @param {import('playwright').Browser} browser @param {string} url
 * @param {number} expectedTotal
 */
async function timeOneSignIn(browser, url, expectedTotal) {
  const context = await browser.newContext({ viewport: PHONE_VIEWPORT, locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.goto(`${url}/admin/login`);
    await page.getByRole('textbox', { name: 'Username or email' }).fill(BENCH_ADMIN.username);
    await page.getByLabel(/^Password/).fill(BENCH_ADMIN.password);
    const started = performance.now();
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    const figures = page.getByRole('region', { name: 'Key figures' });
    // The total proves the stats arrived; the other cards may come from other requests.
    // `first`: another card (the subscribers) may show the same number.
    await figures
      .getByText(expectedTotal.toLocaleString('en-US'), { exact: true })
      .first()
      .waitFor({ state: 'visible', timeout: 60_000 });
    await figures
      .locator('.MuiSkeleton-root')
      .first()
      .waitFor({ state: 'detached', timeout: 60_000 });
    return performance.now() - started;
  } finally {
    await context.close();
  }
}
