/// <reference lib="dom" />
// Page functions (evaluate, poll) run in the browser: they use its globals.
import { expect, test } from '@playwright/test';
import { appUrl } from '../support/e2e-env';
import { blockStockPhotos, expectTopAt, openPage } from './public-site-helpers';

test.describe('the public site on a 375 px screen', () => {
  test.beforeEach(async ({ context, page }) => {
    await blockStockPhotos(context);
    await page.setViewportSize({ width: 375, height: 812 });
  });

  test('the side menu opens from its button and holds the links, the language and the contact button', async ({
    page,
  }) => {
    await openPage(page, appUrl('/portfolio'));
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    await expect(menuButton).toBeVisible();
    await expect(
      page
        .getByRole('navigation', { name: 'Main navigation' })
        .first()
        .getByRole('link', { name: 'Home', exact: true }),
    ).toBeHidden();

    await menuButton.click();
    const menu = page.locator('#navigation-menu');
    await expect(menu).toBeVisible();
    for (const name of ['Home', 'Services', 'Portfolio', 'About', 'Contact']) {
      await expect(menu.getByRole('link', { name, exact: true })).toBeVisible();
    }
    await expect(menu.getByLabel('Language')).toBeVisible();
    await expect(menu.getByRole('button', { name: 'Get in Touch' })).toBeVisible();
  });

  test('the side menu closes on its backdrop', async ({ page }) => {
    await openPage(page, appUrl('/portfolio'));
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.locator('#navigation-menu')).toBeVisible();

    await page.mouse.click(20, 400);

    await expect(page.locator('#navigation-menu')).toBeHidden();
  });

  test('a route link in the side menu opens its page and closes the menu', async ({ page }) => {
    await openPage(page, appUrl('/portfolio'));
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page
      .locator('#navigation-menu')
      .getByRole('link', { name: 'Contact', exact: true })
      .click();

    await expect(page).toHaveURL(/\/contact$/);
    await expect(page.locator('#navigation-menu')).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Contact Us' })).toBeVisible();
  });

  test('an anchor in the side menu closes it and lands 80 px below the top', async ({ page }) => {
    await openPage(page, appUrl('/services'));
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page
      .locator('#navigation-menu')
      .getByRole('link', { name: 'About', exact: true })
      .click();

    await expect(page.locator('#navigation-menu')).toBeHidden();
    await expect(page).toHaveURL(/\/#about$/);
    await expectTopAt(page, '#about', 80);
  });

  test('portfolio items show their words without a hover', async ({ page }) => {
    await openPage(page, appUrl('/portfolio'));
    const caption = page.locator('figcaption').first();
    await expect(caption).toContainText('E-commerce Website');
    await expect
      .poll(() => caption.evaluate((element) => getComputedStyle(element).opacity))
      .toBe('1');
  });
});

test.describe('portfolio items on a wide screen', () => {
  test('reveal their text on hover and on keyboard focus', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openPage(page, appUrl('/portfolio'));
    const tiles = page.locator('figure');
    const opacity = (index: number) =>
      tiles
        .nth(index)
        .locator('figcaption')
        .evaluate((element) => getComputedStyle(element).opacity);

    await expect.poll(() => opacity(0)).toBe('0');
    await tiles.nth(0).hover();
    await expect.poll(() => opacity(0)).toBe('1');

    await page.mouse.move(0, 0);
    await tiles.nth(1).focus();
    await expect.poll(() => opacity(1)).toBe('1');
  });
});

for (const width of [375, 1280]) {
  test.describe(`case-study quotes at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('are there to read, without a tap or a hover', async ({ context, page }) => {
      await blockStockPhotos(context);
      await openPage(page, appUrl('/'));
      const stories = page.locator('#success-heading').locator('xpath=ancestor::section');
      await stories.scrollIntoViewIfNeeded();
      const cards = stories.getByRole('article');
      await expect(cards).toHaveCount(6);

      for (const card of await cards.all()) {
        await card.scrollIntoViewIfNeeded();
        const quote = card.locator('blockquote');
        await expect(quote).toBeVisible();
        await expect(quote).toHaveText(/^“.{40,}”$/);
        // Fully shown and inside its card: not faded out, not cut off.
        expect(await quote.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
        const [inner, outer] = await Promise.all([quote.boundingBox(), card.boundingBox()]);
        expect(inner && outer).toBeTruthy();
        if (inner && outer) {
          expect(inner.y + inner.height).toBeLessThanOrEqual(outer.y + outer.height + 0.5);
          expect(inner.width).toBeLessThanOrEqual(outer.width);
        }
      }
      await expect(cards.first()).toHaveAccessibleName('Restaurant manager');
    });
  });
}
