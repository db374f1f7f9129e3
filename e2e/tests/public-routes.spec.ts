/// <reference lib="dom" />
// Page functions (evaluate, poll) run in the browser: they use its globals.
import { expect, test } from '@playwright/test';
import { appUrl } from '../support/e2e-env';
import {
  addressIn,
  blockStockPhotos,
  LANGUAGES,
  saveScreenshot,
  scrollThroughPage,
} from './public-site-helpers';

/** Every public route (its English address) with its main heading in each language. */
const ROUTES = [
  {
    name: 'home',
    path: '/',
    heading: {
      en: 'Grow your business with marketing that performs',
      fr: 'Développez votre entreprise avec un marketing qui performe',
      ar: /تسويق/,
    },
  },
  {
    name: 'services',
    path: '/services',
    heading: { en: 'Our Services', fr: 'Nos Services', ar: 'خدماتنا' },
  },
  {
    name: 'services-slug',
    path: '/services/meta-ads',
    heading: { en: 'Our Services', fr: 'Nos Services', ar: 'خدماتنا' },
  },
  {
    name: 'services-dedicated',
    path: '/services-dedicated',
    heading: { en: 'Our Services', fr: 'Nos Services', ar: 'خدماتنا' },
  },
  {
    name: 'portfolio',
    path: '/portfolio',
    heading: { en: 'Our Portfolio', fr: 'Notre Portfolio', ar: 'أعمالنا' },
  },
  {
    name: 'contact',
    path: '/contact',
    heading: { en: 'Contact Us', fr: 'Contactez-nous', ar: 'اتصل بنا' },
  },
  {
    name: 'thank-you',
    path: '/thank-you',
    heading: { en: 'Thank You!', fr: 'Merci !', ar: 'شكرًا لك!' },
  },
  {
    name: 'privacy',
    path: '/privacy',
    heading: {
      en: 'Privacy Policy',
      fr: 'Politique de confidentialité',
      ar: 'سياسة الخصوصية',
    },
  },
  {
    name: 'not-found',
    path: '/no/such/page',
    heading: { en: 'Page Not Found', fr: 'Page introuvable', ar: 'الصفحة غير موجودة' },
  },
] as const;

const WIDTHS = [1280, 375] as const;

for (const language of LANGUAGES) {
  test.describe(`public pages in ${language}`, () => {
    test.beforeEach(async ({ context }) => {
      await blockStockPhotos(context);
    });

    for (const route of ROUTES) {
      const address = addressIn(route.path, language);
      test(`${address} shows its page, in ${language}, laid out ${language === 'ar' ? 'right to left' : 'left to right'}`, async ({
        page,
      }) => {
        const origin = new URL(appUrl('/')).origin;
        const foreignRequests: string[] = [];
        page.on('request', (request) => {
          if (new URL(request.url()).origin !== origin) foreignRequests.push(request.url());
        });

        for (const width of WIDTHS) {
          // Only what loading asks for counts: scrolling later fetches the (blocked) portraits.
          foreignRequests.length = 0;
          await page.setViewportSize({ width, height: 900 });
          await page.goto(appUrl(address));
          await expect(
            page.getByRole('heading', { level: 1, name: route.heading[language] }),
          ).toBeVisible();
          await expect(page.locator('html')).toHaveAttribute('lang', language);
          await expect(page.locator('html')).toHaveAttribute(
            'dir',
            language === 'ar' ? 'rtl' : 'ltr',
          );
          // Fonts, icons and scripts are bundled: loading a page asks no other host for anything.
          await page.waitForLoadState('networkidle');
          expect(foreignRequests, 'requests to other hosts at load').toEqual([]);

          await scrollThroughPage(page);
          if (route.name === 'home') {
            // The contact section is the last to be built, as the visitor reaches it.
            const contact = page.locator('#contact');
            await contact.scrollIntoViewIfNeeded();
            await expect(contact.getByRole('button', { name: /.+/ }).last()).toBeVisible();
          }
          await saveScreenshot(page, language, route.name);
        }
      });
    }
  });
}
