/// <reference lib="dom" />
// Page functions (evaluate, poll) run in the browser: they use its globals.
import { expect, test, type Page } from '@playwright/test';
import { appUrl } from '../support/e2e-env';
import { blockStockPhotos, openPage, scrollThroughPage } from './public-site-helpers';

/** The FAQ's first question in Arabic (features/home/locales/sections/ar.json). */
const ARABIC_FAQ_QUESTION = 'متى سأرى النتائج؟';

test.describe('each language at its own address', () => {
  test.beforeEach(async ({ context }) => {
    await blockStockPhotos(context);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('/ar/ is Arabic, right to left, with its FAQ in the page', async ({ page }) => {
      await page.goto(appUrl('/ar/'));

      await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      await expect(page.getByRole('heading', { level: 1 })).toContainText('تسويق');
      const faq = page.locator('#faq');
      await expect(faq.getByRole('heading', { level: 2 })).toBeVisible();
      await expect(faq.getByText(ARABIC_FAQ_QUESTION)).toBeVisible();
      // The answers are in the page too, folded until a question is opened.
      await expect(faq).toContainText('خلال 2-4 أسابيع');
      await expect(page.locator('head link[rel="alternate"][hreflang="x-default"]')).toHaveCount(1);
    });

    test("each page preloads its own script's font for the first paint", async ({ page }) => {
      const fontPreloads = async (path: string) => {
        await page.goto(appUrl(path));
        return page
          .locator('head link[rel="preload"][as="font"]')
          .evaluateAll((links) =>
            links.map((link) => new URL((link as HTMLLinkElement).href).pathname),
          );
      };

      expect((await fontPreloads('/ar/')).sort()).toEqual([
        expect.stringMatching(/\/cairo-arabic-wght-/),
        expect.stringMatching(/\/cairo-latin-wght-/),
      ]);
      expect(await fontPreloads('/fr/')).toEqual([expect.stringMatching(/\/inter-latin-wght-/)]);
      expect(await fontPreloads('/services')).toEqual([
        expect.stringMatching(/\/inter-latin-wght-/),
      ]);
    });

    test('robots.txt and sitemap.xml are files of their own, not the app', async ({ page }) => {
      const robots = await page.request.get(appUrl('/robots.txt'));
      expect(robots.headers()['content-type']).toMatch(/^text\/plain/);
      const rules = await robots.text();
      expect(rules).toMatch(/^Disallow: \/admin$/m);
      expect(rules).toMatch(/^Disallow: \/api$/m);
      expect(rules).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);

      const sitemap = await page.request.get(appUrl('/sitemap.xml'));
      expect(sitemap.headers()['content-type']).toMatch(/xml/);
      const xml = await sitemap.text();
      for (const path of ['/', '/fr/', '/ar/', '/services', '/fr/portfolio', '/ar/contact']) {
        expect(xml).toMatch(new RegExp(`<loc>https?://[^<]+${path.replace(/\//g, '\\/')}</loc>`));
      }
    });
  });

  test('the language selector opens the same page at the other language’s address', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openPage(page, appUrl('/services'));

    await page.getByLabel('Language').selectOption('fr');

    await expect(page).toHaveURL(/\/fr\/services$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Nos Services' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');

    await page.waitForLoadState('networkidle');
    await page.getByLabel('Langue').selectOption('ar');

    await expect(page).toHaveURL(/\/ar\/services$/);
    await expect(page.getByRole('heading', { level: 1, name: 'خدماتنا' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  });

  test('links keep the visitor in the language of the page', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openPage(page, appUrl('/fr/portfolio'));

    await page
      .getByRole('navigation', { name: 'Navigation principale' })
      .getByRole('link', { name: 'Services' })
      .click();

    await expect(page).toHaveURL(/\/fr\/services-dedicated$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Nos Services' })).toBeVisible();
    await expect(page).toHaveTitle(/Nos Services/);
    await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute(
      'href',
      /\/fr\/services$/,
    );
  });
});

/**
 * Records, on every document the tab loads, whether the page was hidden when
 * it could first have painted (sessionStorage outlives a same-origin redirect).
 */
async function recordFirstPaints(page: Page) {
  await page.addInitScript(() => {
    requestAnimationFrame(() => {
      const seen = JSON.parse(sessionStorage.getItem('first-paints') ?? '[]') as string[][];
      seen.push([location.pathname, getComputedStyle(document.documentElement).visibility]);
      sessionStorage.setItem('first-paints', JSON.stringify(seen));
    });
  });
}

async function documentsLoaded(page: Page): Promise<string[]> {
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(new URL(request.url()).pathname);
  });
  return documents;
}

test.describe('the home page `/` picks the language', () => {
  test('of a returning visitor: their stored choice, in one hop, without showing English', async ({
    page,
  }) => {
    await page.addInitScript(() => window.localStorage.setItem('i18nextLng', 'fr'));
    await recordFirstPaints(page);
    const documents = await documentsLoaded(page);

    await page.goto(appUrl('/#faq'));

    await expect(page).toHaveURL(/\/fr\/#faq$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Développez');
    expect(documents).toEqual(['/', '/fr/']);
    const paints = await page.evaluate(
      () => JSON.parse(sessionStorage.getItem('first-paints') ?? '[]') as string[][],
    );
    // Whatever the English document got to paint, it painted hidden.
    for (const [path, visibility] of paints) {
      if (path === '/') expect(visibility).toBe('hidden');
    }
  });

  test.describe('of a first visit', () => {
    test.use({ locale: 'ar-TN' });

    test("from the browser's language", async ({ page }) => {
      const documents = await documentsLoaded(page);
      await page.goto(appUrl('/'));

      await expect(page).toHaveURL(/\/ar\/$/);
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
      expect(documents).toEqual(['/', '/ar/']);
    });

    test('and stays in English once English is chosen', async ({ page }) => {
      await page.addInitScript(() => window.localStorage.setItem('i18nextLng', 'en'));
      await page.goto(appUrl('/'));

      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      expect(new URL(page.url()).pathname).toBe('/');
    });
  });
});

test.describe('Arabic at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  for (const path of ['/ar/', '/ar/services', '/ar/portfolio', '/ar/contact', '/ar/thank-you']) {
    test(`${path} fits the screen, with its figures reading as in English`, async ({
      context,
      page,
    }) => {
      await blockStockPhotos(context);
      await openPage(page, appUrl(path));
      await scrollThroughPage(page);

      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, 'page wider than the screen').toBeLessThanOrEqual(0);
      // "150+", "98%", "4.8/5": each figure is isolated left to right, so its
      // characters sit on screen in the order they are written, sign included.
      const figures = await page.evaluate(() =>
        [...document.querySelectorAll('bdi')].map((figure) => {
          const xs: number[] = [];
          const walker = document.createTreeWalker(figure, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (let index = 0; index < (node.textContent ?? '').length; index++) {
              const range = document.createRange();
              range.setStart(node, index);
              range.setEnd(node, index + 1);
              xs.push(range.getBoundingClientRect().left);
            }
          }
          return { text: figure.textContent ?? '', xs };
        }),
      );
      if (path === '/ar/' || path === '/ar/thank-you') {
        expect(figures.some(({ text }) => /[+%]/.test(text))).toBe(true);
      }
      for (const { text, xs } of figures) {
        const visible = xs.filter((x) => x !== 0);
        if (visible.length < 2) continue;
        expect(visible, `"${text}" reads left to right`).toEqual(
          [...visible].sort((a, b) => a - b),
        );
      }
    });
  }
});

test.describe('the Arabic thank-you page', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('gives the response time in Arabic words, its figure still left to right', async ({
    context,
    page,
  }) => {
    await blockStockPhotos(context);
    await openPage(page, appUrl('/ar/thank-you'));
    const card = page.getByText('مدة الرد').locator('xpath=preceding-sibling::p[1]');

    await expect(card).toHaveText(/^24\s*ساعة$/);
    await expect(card.locator('bdi')).toHaveText('24');
    await expect(card.locator('bdi')).toHaveAttribute('dir', 'ltr');
    // The word reads in the page's direction: to the left of the figure.
    const { figureLeft, wordRight } = await card.evaluate((element) => {
      const bdi = element.querySelector('bdi');
      const word = bdi?.nextSibling;
      const range = document.createRange();
      if (word) range.selectNodeContents(word);
      return {
        figureLeft: bdi?.getBoundingClientRect().left ?? 0,
        wordRight: range.getBoundingClientRect().right,
      };
    });
    expect(wordRight).toBeLessThanOrEqual(figureLeft + 1);
  });
});
