/// <reference lib="dom" />
// Page functions (evaluate, poll) run in the browser: they use its globals.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, type BrowserContext, type Locator, type Page } from '@playwright/test';

export const LANGUAGES = ['en', 'fr', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Where the suite leaves screenshots for people to look at (git-ignored). */
export const SCREENSHOT_DIR = resolve(__dirname, '..', '..', 'artifacts', 'screenshots');

/** The portraits' stock-photo host: blocked in the suite so no test leaves the machine. */
export const STOCK_PHOTO_HOST = 'images.unsplash.com';

/** A page's address in `language`: English at the root, the others below their code. */
export function addressIn(path: string, language: Language): string {
  return language === 'en' ? path : `/${language}${path}`;
}

/** Blocks the stock-photo host, so portraits take their local fallback. */
export async function blockStockPhotos(context: BrowserContext) {
  await context.route(`https://${STOCK_PHOTO_HOST}/**`, (route) => route.abort('blockedbyclient'));
}

/**
 * Scrolls to the bottom in steps so every section the visitor would pass is
 * built (they are built as the visitor heads for them) and revealed.
 */
export async function scrollThroughPage(page: Page) {
  let previousHeight = 0;
  let stableRounds = 0;
  for (let round = 0; round < 60 && stableRounds < 3; round++) {
    const { height, bottom } = await page.evaluate(() => {
      window.scrollBy(0, window.innerHeight * 0.8);
      return {
        height: document.documentElement.scrollHeight,
        bottom: window.scrollY + window.innerHeight,
      };
    });
    // At the bottom and no longer growing for a few frames: everything is built.
    stableRounds = bottom >= height - 2 && height === previousHeight ? stableRounds + 1 : 0;
    previousHeight = height;
    // Each step lets the sections that came into view build (on a frame, not a clock).
    await nextFrame(page);
  }
}

/**
 * Resolves once the page has drawn its next frame, or after half a second
 * for a page that draws none (hidden, or its renderer stalled), rather than
 * waiting for ever.
 */
export async function nextFrame(page: Page) {
  await page.evaluate(
    () =>
      new Promise((done) => {
        requestAnimationFrame(() => done(null));
        window.setTimeout(() => done(null), 500);
      }),
  );
}

/** Saves a full-page screenshot as artifacts/screenshots/<language>/<name>-<width>.png. */
export async function saveScreenshot(page: Page, language: Language, name: string) {
  const width = page.viewportSize()?.width ?? 0;
  const dir = join(SCREENSHOT_DIR, language);
  mkdirSync(dir, { recursive: true });
  // From the top, so the fixed navigation bar sits where a visitor sees it.
  await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
  await page.screenshot({ path: join(dir, `${name}-${width}.png`), fullPage: true });
}

/**
 * Waits until the element's top edge settles at `top` px from the viewport's
 * top. Within half a pixel: text lines of fractional height can leave an
 * element at x.5 px, and the page scrolls by whole pixels.
 */
export async function expectTopAt(page: Page, selector: string, top: number) {
  await expect
    .poll(
      async () =>
        page
          .locator(selector)
          .evaluate(
            (element, target) => Math.abs(element.getBoundingClientRect().top - target),
            top,
          ),
      {
        message: `${selector} comes to rest ${top} px below the top of the window`,
        timeout: 10_000,
      },
    )
    .toBeLessThanOrEqual(0.5);
}

/**
 * Opens a page and waits until its scripts have loaded and gone quiet: the
 * public pages are prerendered, and a control only acts as the app once the
 * page is hydrated (before that, a link simply follows its href).
 */
export async function openPage(page: Page, url: string) {
  await page.goto(url);
  await page.waitForLoadState('networkidle');
}

/**
 * Waits until React has made a prerendered element live: the sections below
 * the hero are hydrated once their code has arrived (on view), and a click
 * on them before that does nothing.
 */
export async function waitUntilLive(locator: Locator) {
  await expect
    .poll(() =>
      locator.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__react'))),
    )
    .toBe(true);
}

/** Scrolls just past the hero, as a visitor starting to read the home page does. */
export async function scrollPastHero(page: Page) {
  await page.mouse.wheel(0, 900);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
}
