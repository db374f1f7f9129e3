/// <reference lib="dom" />
// Page functions (evaluate, poll) run in the browser: they use its globals.
import { expect, test } from '@playwright/test';
import { appUrl } from '../support/e2e-env';
import {
  blockStockPhotos,
  expectTopAt,
  openPage,
  scrollPastHero,
  STOCK_PHOTO_HOST,
  waitUntilLive,
} from './public-site-helpers';

/** Spec 9: anchors land 80 px below the top, under the fixed navigation bar. */
const ANCHOR_OFFSET = 80;

test.describe('navigation on the public site', () => {
  test.beforeEach(async ({ context, page }) => {
    await blockStockPhotos(context);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('the bar turns opaque past 20 px of scroll', async ({ page }) => {
    await openPage(page, appUrl('/portfolio'));
    const bar = page.getByRole('banner');
    const background = () => bar.evaluate((element) => getComputedStyle(element).backgroundColor);

    await expect.poll(background).toBe('rgba(0, 0, 0, 0)');
    await page.evaluate(() => window.scrollTo(0, 20));
    await expect.poll(background).toBe('rgba(0, 0, 0, 0)');
    await page.evaluate(() => window.scrollTo(0, 21));
    await expect.poll(background).toBe('rgb(255, 255, 255)');
  });

  test('an in-page anchor scrolls smoothly to 80 px below the top', async ({ page }) => {
    await openPage(page, appUrl('/'));
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Get in Touch' })
      .click();

    await expectTopAt(page, '#contact', ANCHOR_OFFSET);
  });

  test('from another page, an anchor opens the home page and lands on its section', async ({
    page,
  }) => {
    await openPage(page, appUrl('/portfolio'));
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'About' })
      .click();

    await expect(page).toHaveURL(/\/#about$/);
    await expectTopAt(page, '#about', ANCHOR_OFFSET);
  });

  test('a hash in the address scrolls to its section on load', async ({ page }) => {
    await openPage(page, appUrl('/#faq'));
    await expectTopAt(page, '#faq', ANCHOR_OFFSET);
  });

  test('the home page starts at the top', async ({ page }) => {
    await openPage(page, appUrl('/'));
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("'Commencer Maintenant' on /fr/services scrolls to the page's own contact section", async ({
    page,
  }) => {
    await openPage(page, appUrl('/fr/services'));
    await page.getByRole('link', { name: 'Commencer Maintenant' }).first().click();

    await expect(page).toHaveURL(/\/fr\/services(#contact)?$/);
    await expectTopAt(page, '#contact', ANCHOR_OFFSET);
    await expect(page.locator('#contact').getByLabel('Prénom')).toBeVisible();
  });

  test("the English services page says 'Get Started Now' instead", async ({ page }) => {
    await openPage(page, appUrl('/services'));
    await page.getByRole('link', { name: 'Get Started Now' }).first().click();

    await expectTopAt(page, '#contact', ANCHOR_OFFSET);
    await expect(page.locator('#contact').getByLabel('First Name')).toBeVisible();
  });

  test('FAQ answers open one at a time and close on a second click', async ({ page }) => {
    await openPage(page, appUrl('/#faq'));
    const first = page.getByRole('button', { name: 'How soon will I see results?' });
    const second = page.getByRole('button', { name: 'Do I need to sign a long-term contract?' });
    await waitUntilLive(first);

    await first.click();
    await expect(page.getByText(/initial results within 2-4 weeks/)).toBeVisible();
    await second.click();
    await expect(first).toHaveAttribute('aria-expanded', 'false');
    await expect(second).toHaveAttribute('aria-expanded', 'true');
    await second.click();
    await expect(second).toHaveAttribute('aria-expanded', 'false');
  });

  test('the impact counters count up to their figures once the grid is in view', async ({
    page,
  }) => {
    await openPage(page, appUrl('/'));
    await scrollPastHero(page);
    const counters = page.getByTestId(/^impact-counter-/);
    await counters.first().scrollIntoViewIfNeeded();

    await expect(counters).toHaveText(['150+', '4.8/5', '320+', '2.5x'], { timeout: 15_000 });
  });

  test('with reduced motion, the counters show their figures at once', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await openPage(page, appUrl('/'));
    await scrollPastHero(page);
    const counters = page.getByTestId(/^impact-counter-/);
    await counters.first().scrollIntoViewIfNeeded();

    await expect(counters).toHaveText(['150+', '4.8/5', '320+', '2.5x'], { timeout: 2_000 });
  });

  for (const reducedMotion of ['no-preference', 'reduce'] as const) {
    test(`the prerendered sections are made live where they stand (motion: ${reducedMotion})`, async ({
      page,
    }) => {
      await page.emulateMedia({ reducedMotion });
      await openPage(page, appUrl('/'));
      // Their code has not loaded yet (nothing scrolled), but their words are in the page.
      await expect(page.locator('#faq')).toBeAttached();
      await page.evaluate(() => {
        const faq = document.getElementById('faq');
        new MutationObserver(() => {
          if (faq && !faq.isConnected) document.documentElement.dataset.faqReplaced = 'yes';
        }).observe(document.body, { childList: true, subtree: true });
      });

      await scrollPastHero(page);
      await page.locator('#faq').scrollIntoViewIfNeeded();
      await page.waitForLoadState('networkidle');
      const question = page.getByRole('button', { name: 'How soon will I see results?' });
      await waitUntilLive(question);
      await question.click();

      await expect(page.getByText(/initial results within 2-4 weeks/)).toBeVisible();
      // Hydrated, not thrown away and built again.
      expect(
        await page.evaluate(() => document.documentElement.dataset.faqReplaced),
      ).toBeUndefined();
    });
  }

  test('testimonial portraits fall back to the local image when the photo host is blocked', async ({
    page,
  }) => {
    await openPage(page, appUrl('/'));
    await scrollPastHero(page);
    const portrait = page.getByRole('img', { name: 'Portrait of Sarah Johnson' });
    await portrait.scrollIntoViewIfNeeded();

    await expect(portrait).toHaveAttribute('src', '/images/avatar-fallback.svg');
    await expect
      .poll(() => portrait.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBeGreaterThan(0);
    expect(STOCK_PHOTO_HOST).toBe('images.unsplash.com');
  });

  test('every control can be reached with the keyboard and shows where focus is', async ({
    page,
  }) => {
    await openPage(page, appUrl('/portfolio'));
    const seen = new Set<string>();
    for (let step = 0; step < 25; step++) {
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        if (!element || element === document.body) return null;
        const style = getComputedStyle(element);
        return {
          label:
            element.getAttribute('aria-label') ?? element.textContent?.trim().slice(0, 40) ?? '',
          ring: style.outlineStyle !== 'none' && style.outlineWidth !== '0px',
        };
      });
      if (!focus) continue;
      expect(focus.ring, `focus ring on "${focus.label}"`).toBe(true);
      seen.add(focus.label);
    }
    expect([...seen]).toEqual(
      expect.arrayContaining(['Digital Agency, home page', 'Home', 'Portfolio', 'Get in Touch']),
    );
  });
});
