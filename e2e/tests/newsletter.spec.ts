import { API_ROUTES } from '@agency/contracts';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { appUrl } from '../support/e2e-env';
import { openPage, scrollThroughPage } from './public-site-helpers';

/**
 * The newsletter through the real site, proxy and API. The confirmation mail
 * itself, its links and headers are checked by the worker's jest suite
 * against a real SMTP server.
 */
test.describe('newsletter', () => {
  test('a visitor subscribes from the banner that closes the home page', async ({ page }) => {
    const email = `reader.${Date.now()}@example.com`;
    await openPage(page, appUrl('/'));
    // The banner is built as the visitor heads for it, after the contact section.
    await scrollThroughPage(page);
    const banner = page.locator('#newsletter');
    await expect(banner).toHaveCount(1);
    await expect(page.locator('#contact ~ #newsletter')).toHaveCount(1);
    // The sections may still have been building when the scroll reached the bottom.
    await banner.scrollIntoViewIfNeeded();

    await banner.getByRole('textbox', { name: 'Email address' }).fill(email);
    await banner.getByRole('button', { name: 'Subscribe' }).click();

    await expect(page.getByText('Successfully subscribed!')).toBeVisible();
    await expect(banner.getByRole('status')).toContainText('Check your inbox');
    await expect(banner.getByRole('textbox', { name: 'Email address' })).toHaveValue('');
  });

  test('the other public pages carry the banner in their footer', async ({ page }) => {
    await openPage(page, appUrl('/portfolio'));
    await scrollThroughPage(page);

    const banner = page.locator('footer #newsletter');
    await banner.scrollIntoViewIfNeeded();
    await expect(banner.getByRole('heading', { name: 'Stay in the loop' })).toBeVisible();
    await expect(banner.getByRole('button', { name: 'Subscribe' })).toBeEnabled();
  });

  test('a confirmation link that is not ours gets a clear page in its language', async ({
    page,
  }) => {
    await page.goto(appUrl('/newsletter/confirm?token=forged&lang=fr'));

    await expect(page.getByRole('heading', { name: "Ce lien n'est pas valide" })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
  });

  test('the List-Unsubscribe address opens the page with the button', async ({ page }) => {
    await page.goto(appUrl(`${API_ROUTES.newsletterUnsubscribe}?token=forged&lang=en`));

    await expect(page).toHaveURL(/\/newsletter\/unsubscribe\?token=forged&lang=en$/);
    await expect(
      page.getByRole('heading', { name: 'Unsubscribe from our newsletter?' }),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
  });

  test("a test send's unsubscribe link says it was a test, in every language, on a phone too", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    const pages = [
      ['en', 'This was a test send', 'ltr'],
      ['fr', "C'était un envoi de test", 'ltr'],
      ['ar', 'كان هذا إرسالًا تجريبيًا', 'rtl'],
    ] as const;
    for (const [lang, title, dir] of pages) {
      await page.goto(appUrl(`/newsletter/unsubscribe?test=1&lang=${lang}`));

      await expect(page.getByRole('heading', { name: title })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('dir', dir);
      await expect(page.getByRole('button', { name: /Unsubscribe|désabonner|إلغاء/ })).toHaveCount(
        0,
      );
      // This page's own content: the header and footer are the site's, the same on every page.
      const { violations } = await new AxeBuilder({ page })
        .include('main')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
        .analyze();
      const blocking = violations.filter(
        ({ impact }) => impact === 'serious' || impact === 'critical',
      );
      expect(
        blocking.map(
          ({ id, nodes }) => `${id}: ${nodes.map((node) => node.target.join(' ')).join(', ')}`,
        ),
      ).toEqual([]);
      // Nothing overflows the phone's width.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        375,
      );
    }
  });
});
