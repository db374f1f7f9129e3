import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { API_ROUTES, MEDIA_UPLOAD_FIELD } from '@agency/contracts';
import { apiUrl, appUrl } from '../support/e2e-env';
import { confirmedSubscriber, manageUrlFromMail } from '../support/manage-link';
import { solidPng } from '../support/test-image';
import { campaignWithResults } from '../support/tracked-campaign';
import { demoAdminToken, runId, storeDemoAdminSession, waitUntilLoaded } from './admin-helpers';
import {
  addressIn,
  blockStockPhotos,
  LANGUAGES,
  nextFrame,
  openPage,
  scrollThroughPage,
  type Language,
} from './public-site-helpers';

/**
 * WCAG 2.1 A and AA, as axe-core checks them, on every public page and every
 * admin screen, at a desktop and a phone width, in each language. A violation
 * of impact serious or critical fails the run, named by rule, elements and page.
 */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 375, height: 812 },
] as const;

/** The public pages, by their English address (the others are below /fr and /ar). */
const PUBLIC_PATHS = [
  '/',
  '/contact',
  '/services',
  '/services-dedicated',
  '/portfolio',
  '/thank-you',
  '/privacy',
  '/newsletter/confirm',
  '/newsletter/unsubscribe',
  '/no-such-page',
] as const;

/** The signed-out admin pages (they exist at /admin only, in every language). */
const SIGNED_OUT_ADMIN_PATHS = [
  '/admin/login',
  '/admin/forgot-password',
  '/admin/reset-password',
] as const;

/** Every signed-in admin screen; `desktopOnly` for the dashboard tabs a phone does not offer. */
const ADMIN_SCREENS: readonly { path: string; desktopOnly?: boolean }[] = [
  { path: '/admin/dashboard' },
  { path: '/admin/dashboard?tab=contacts', desktopOnly: true },
  { path: '/admin/dashboard?tab=campaigns', desktopOnly: true },
  { path: '/admin/dashboard?tab=analytics', desktopOnly: true },
  { path: '/admin/campaigns' },
  { path: '/admin/campaigns?view=templates' },
  { path: '/admin/audience/lists' },
  { path: '/admin/audience/imports' },
  { path: '/admin/audience/suppression' },
  { path: '/admin/people' },
  { path: '/admin/users' },
  { path: '/admin/contacts' },
  { path: '/admin/clients' },
  { path: '/admin/leads' },
  { path: '/admin/analytics' },
  { path: '/admin/settings' },
];

interface Finding {
  where: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** A scan takes a few seconds; one that has not answered by then never will. */
const SCAN_LIMIT_MS = 90_000;

/** `work`'s result, or an error naming `what` once `limitMs` have passed without one. */
async function withinTime<Result>(work: Promise<Result>, limitMs: number, what: string) {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what} did not end within ${limitMs} ms`)), limitMs);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs axe on what the page shows now and returns its serious and critical violations. */
async function scan(page: Page, where: string, include?: string): Promise<Finding[]> {
  // The campaign preview is the mail as recipients get it, shown in a frame
  // sandboxed without scripts: axe cannot run inside it (its scan never
  // returns), and its content is the author's mail, not a screen of ours.
  const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS).exclude('iframe[sandbox=""]');
  const { violations } = await withinTime(
    (include ? builder.include(include) : builder).analyze(),
    SCAN_LIMIT_MS,
    `axe-core's scan of ${where}`,
  );
  return violations
    .filter((violation) => BLOCKING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => ({
      where,
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      targets: violation.nodes.slice(0, 8).map((node) => node.target.join(' ')),
    }));
}

function report(findings: Finding[]): string {
  return findings
    .map(
      (finding) =>
        `${finding.where}: ${finding.rule} (${finding.impact}) ${finding.help}\n    ${finding.targets.join('\n    ')}`,
    )
    .join('\n');
}

/**
 * Waits until the screen's main heading shows, nothing in it is loading and
 * the page has stopped changing. A screen whose code arrives after its heading
 * has not started its query yet when the heading shows: "nothing is loading"
 * alone could be read before the loading began, and the scan would catch
 * the table mid-load.
 */
async function waitForScreen(page: Page) {
  await expect(page.locator('main h1').first()).toBeVisible();
  await waitUntilLoaded(page);
  await waitUntilStill(page);
  await waitUntilLoaded(page);
}

/**
 * Resolves once the document has gone `quietMs` without a change, or after
 * `limitMs` on a screen that never rests (a live send's progress, a clock).
 */
async function waitUntilStill(page: Page, quietMs = 400, limitMs = 5_000) {
  await page.evaluate(
    ([quiet, limit]) =>
      new Promise<void>((settled) => {
        let timer = window.setTimeout(finish, quiet);
        const deadline = window.setTimeout(finish, limit);
        const observer = new MutationObserver(() => {
          window.clearTimeout(timer);
          timer = window.setTimeout(finish, quiet);
        });
        function finish() {
          window.clearTimeout(timer);
          window.clearTimeout(deadline);
          observer.disconnect();
          settled();
        }
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      }),
    [quietMs, limitMs] as const,
  );
}

/**
 * Moves to `path` as the app's own links do (history and popstate), without
 * loading the app again: the screens are checked in one page, quickly.
 */
async function navigateInApp(page: Page, path: string) {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  // Two frames: the router has rendered the new screen (or its loader).
  await nextFrame(page);
  await nextFrame(page);
}

/** One campaign with results per test worker, made by its first admin scan. */
let reportPath: Promise<string> | undefined;
/** That campaign, whose reader is also a person with a page of their own. */
let trackedCampaign: ReturnType<typeof campaignWithResults> | undefined;

/** One subscriber's preference page per test worker, with a public list they are in. */
let preferenceLink: Promise<URL> | undefined;

/** A public list, a confirmed subscriber in it, and their manage link from the mail. */
async function subscriberWithPublicList(request: APIRequestContext): Promise<URL> {
  const run = runId();
  const created = await request.post(apiUrl(API_ROUTES.lists), {
    headers: { Authorization: `Bearer ${await demoAdminToken(request)}` },
    data: {
      name: `Insights ${run}`,
      public: true,
      nameEn: `Insights ${run}`,
      nameFr: `Analyses ${run}`,
      nameAr: `تحليلات ${run}`,
      descriptionEn: 'Once a month',
      descriptionFr: 'Une fois par mois',
      descriptionAr: 'مرة في الشهر',
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const email = `a11y.${run}@example.com`;
  await confirmedSubscriber(request, email, [id]);
  return new URL(await manageUrlFromMail(request, { to: email, subject: 'Confirm' }));
}

/** The campaigns section's "New Campaign" text, in `language`. */
function newCampaignLabel(language: Language): string {
  return frontendLocale<{ add: string }>(language, 'features', 'admin-campaigns').add;
}

/** A frontend locale file's texts: `frontend/src/<folders>/locales/<language>.json`. */
function frontendLocale<Texts>(language: Language, ...folders: string[]): Texts {
  const file = resolve(
    __dirname,
    '..',
    '..',
    'frontend',
    'src',
    ...folders,
    'locales',
    `${language}.json`,
  );
  return JSON.parse(readFileSync(file, 'utf8')) as Texts;
}

/** One saved segment per test worker, so that the segments screen lists one. */
let savedSegment: Promise<void> | undefined;

async function saveSegment(request: APIRequestContext): Promise<void> {
  const response = await request.post(apiUrl(API_ROUTES.segments), {
    headers: { Authorization: `Bearer ${await demoAdminToken(request)}` },
    data: {
      name: `Accessible ${runId()}`,
      rule: { match: 'all', conditions: [{ field: 'locale', op: 'is', value: 'fr' }] },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** The segments screen's "New segment" text, in `language`. */
function newSegmentLabel(language: Language): string {
  return frontendLocale<{ segments: { new: string } }>(language, 'features', 'admin-people')
    .segments.new;
}

/** One library image per test worker, so that the media screen shows a card. */
let libraryImage: Promise<void> | undefined;

async function uploadLibraryImage(request: APIRequestContext): Promise<void> {
  const response = await request.post(apiUrl(API_ROUTES.media), {
    headers: { Authorization: `Bearer ${await demoAdminToken(request)}` },
    multipart: {
      [MEDIA_UPLOAD_FIELD]: {
        name: `accessible-${runId()}.png`,
        mimeType: 'image/png',
        buffer: await solidPng(400, 300, `a11y${runId()}`),
      },
    },
  });
  expect([200, 201], await response.text()).toContain(response.status());
}

/** The media library's and the campaign editor's words the scan clicks, in `language`. */
function mediaLabels(language: Language) {
  const media = frontendLocale<{ deleteOf: string; renameOf: string; picker: { title: string } }>(
    language,
    'components',
    'admin',
    'media',
  );
  const campaigns = frontendLocale<{ editor: { image: string } }>(
    language,
    'features',
    'admin-campaigns',
  );
  return {
    // "Delete {{name}}": the start of each card's delete button's name.
    deleteButton: media.deleteOf.slice(0, media.deleteOf.indexOf('{{')).trim(),
    renameButton: media.renameOf.slice(0, media.renameOf.indexOf('{{')).trim(),
    pickerTitle: media.picker.title,
    imageButton: campaigns.editor.image,
  };
}

/** Chooses the admin's language as the language menu does: stored, then read on load. */
async function chooseAdminLanguage(page: Page, language: Language) {
  await page.evaluate((code) => window.localStorage.setItem('i18nextLng', code), language);
}

/** What a scan checks before it runs, at each width (the screen is shown and settled by then). */
type BeforeScan = (page: Page) => Promise<void>;

interface WidthScan {
  /** The screen's name in a finding, e.g. its path; the language and width follow it. */
  where: string;
  /** Scans at the desktop width only (a screen the phone does not offer). */
  desktopOnly?: boolean;
  /** Only this part of the page is scanned (a dialog). */
  include?: string;
  before?: BeforeScan;
}

/**
 * Scans what the page shows at each width in turn, resizing the same page:
 * the layouts follow the width through media queries, so a screen loaded
 * once is scanned at both widths, as a fresh load at each width would show it.
 */
async function scanAtEachWidth(
  page: Page,
  language: Language,
  { where, desktopOnly, include, before }: WidthScan,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const viewport of VIEWPORTS) {
    if (desktopOnly && viewport.width < 900) continue;
    await page.setViewportSize(viewport);
    await waitForScreen(page);
    await before?.(page);
    findings.push(...(await scan(page, `${where} (${language} ${viewport.width}px)`, include)));
  }
  return findings;
}

/** The page is shown in `language`, right to left in Arabic. */
function inLanguage(language: Language): BeforeScan {
  return async (page) => {
    await expect(page.locator('html')).toHaveAttribute('lang', new RegExp(`^${language}`));
  };
}

test.describe('axe-core finds no serious or critical WCAG 2.1 AA violation', () => {
  test.use({ reducedMotion: 'reduce' });
  // The scans only read: two browsers at once (`--workers 2` in the a11y step)
  // keep both cores busy while one of them waits for a screen to settle.
  test.describe.configure({ mode: 'parallel' });

  for (const language of LANGUAGES) {
    test(`the public site in ${language}`, async ({ page, context }) => {
      test.setTimeout(300_000);
      await blockStockPhotos(context);
      const findings: Finding[] = [];
      for (const path of PUBLIC_PATHS) {
        const address = addressIn(path, language);
        // A step per page: a failure or a hang names the page it happened on.
        await test.step(address, async () => {
          await page.setViewportSize(VIEWPORTS[0]);
          await openPage(page, appUrl(address));
          findings.push(
            ...(await scanAtEachWidth(page, language, {
              where: address,
              before: async (shown) => {
                await inLanguage(language)(shown);
                // The sections below the fold are built as the visitor heads for them:
                // from the top at each width, as a visitor who opened the page there.
                if (path === '/') {
                  await shown.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
                  await scrollThroughPage(shown);
                }
              },
            })),
          );
        });
      }
      expect(findings, report(findings)).toEqual([]);
    });

    test(`the preference page in ${language}`, async ({ page, request }) => {
      test.setTimeout(120_000);
      preferenceLink ??= subscriberWithPublicList(request);
      const link = new URL(await preferenceLink);
      link.searchParams.set('lang', language);
      const address = `${addressIn(link.pathname, language)}${link.search}`;
      await page.setViewportSize(VIEWPORTS[0]);
      await page.goto(appUrl(address));
      const findings = await scanAtEachWidth(page, language, {
        where: '/newsletter/preferences',
        before: async (shown) => {
          // Its lists, its language choice and the data buttons are all shown.
          await expect(shown.locator('main input[type="checkbox"]:checked')).not.toHaveCount(0);
          await expect(shown.locator('main section[aria-labelledby] button')).toHaveCount(2);
          await inLanguage(language)(shown);
        },
      });
      expect(findings, report(findings)).toEqual([]);
    });

    test(`the admin screens in ${language}`, async ({ page, request }) => {
      test.setTimeout(360_000);
      await page.setViewportSize(VIEWPORTS[0]);
      await page.goto(appUrl('/favicon.svg'));
      await chooseAdminLanguage(page, language);
      const findings: Finding[] = [];
      for (const path of SIGNED_OUT_ADMIN_PATHS) {
        await page.setViewportSize(VIEWPORTS[0]);
        await page.goto(appUrl(path));
        // The screens are scanned in the chosen language, right to left in Arabic.
        findings.push(
          ...(await scanAtEachWidth(page, language, { where: path, before: inLanguage(language) })),
        );
      }

      await storeDemoAdminSession(page, request);
      await page.setViewportSize(VIEWPORTS[0]);
      await page.goto(appUrl('/admin/dashboard'));
      for (const screen of ADMIN_SCREENS) {
        await navigateInApp(page, screen.path);
        findings.push(
          ...(await scanAtEachWidth(page, language, {
            where: screen.path,
            desktopOnly: screen.desktopOnly,
          })),
        );
      }

      // A campaign's results, with a person's open and click counted.
      trackedCampaign ??= campaignWithResults(request);
      reportPath ??= trackedCampaign.then(
        ({ campaignId }) => `/admin/campaigns/${campaignId}/report`,
      );
      const resultsScreen = await reportPath;
      await navigateInApp(page, resultsScreen);
      findings.push(...(await scanAtEachWidth(page, language, { where: resultsScreen })));
      // The campaign's reader's page: a list, a subscription and the mail sent to them.
      const { reader } = await trackedCampaign;
      const personScreen = `/admin/people/${encodeURIComponent(reader.toLowerCase())}`;
      await navigateInApp(page, personScreen);
      findings.push(...(await scanAtEachWidth(page, language, { where: personScreen })));
      // The segments screen with a saved segment, then with its rule builder open.
      savedSegment ??= saveSegment(request);
      await savedSegment;
      await navigateInApp(page, '/admin/people/segments');
      findings.push(
        ...(await scanAtEachWidth(page, language, {
          where: '/admin/people/segments',
          before: async (shown) => {
            await expect(shown.getByRole('main').getByRole('listitem').first()).toBeVisible();
          },
        })),
      );
      await page
        .getByRole('main')
        .getByRole('button', { name: newSegmentLabel(language) })
        .click();
      await expect(page.locator('#segment-builder-title')).toBeVisible();
      findings.push(
        ...(await scanAtEachWidth(page, language, {
          where: '/admin/people/segments builder',
          before: async (shown) => {
            await expect(shown.locator('#segment-builder-title')).toBeVisible();
          },
        })),
      );
      // Analytics again, now that a campaign has rates to compare (its table links to the
      // report). Loaded afresh: the app still holds the campaign list it read before the send.
      await page.goto(appUrl('/admin/analytics'));
      findings.push(
        ...(await scanAtEachWidth(page, language, {
          where: '/admin/analytics with results',
          before: async (shown) => {
            await expect(shown.locator(`main a[href="${resultsScreen}"]`)).toBeVisible();
          },
        })),
      );

      // The media library with an image, then with its delete confirmation open.
      const words = mediaLabels(language);
      libraryImage ??= uploadLibraryImage(request);
      await libraryImage;
      await navigateInApp(page, '/admin/media');
      findings.push(
        ...(await scanAtEachWidth(page, language, {
          where: '/admin/media',
          before: async (shown) => {
            await expect(shown.getByRole('main').getByRole('img').first()).toBeVisible();
          },
        })),
      );
      await page
        .getByRole('main')
        .getByRole('button', { name: new RegExp(`^${words.deleteButton}`) })
        .first()
        .click();
      findings.push(
        ...(await scanAtEachWidth(page, language, {
          where: '/admin/media delete dialog',
          include: '[role="dialog"]',
          before: async (shown) => {
            await expect(shown.getByRole('dialog')).toBeVisible();
          },
        })),
      );
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();
      await page
        .getByRole('main')
        .getByRole('button', { name: new RegExp(`^${words.renameButton}`) })
        .first()
        .click();
      findings.push(
        ...(await scanAtEachWidth(page, language, {
          where: '/admin/media rename dialog',
          include: '[role="dialog"]',
          before: async (shown) => {
            await expect(shown.getByRole('dialog').getByRole('textbox')).toBeVisible();
          },
        })),
      );
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toBeHidden();

      // The campaign editor, opened from the Mail Manager.
      await page.goto(appUrl('/admin/campaigns'));
      await waitForScreen(page);
      await page
        .getByRole('button', { name: newCampaignLabel(language) })
        .first()
        .click();
      findings.push(
        ...(await scanAtEachWidth(page, language, {
          where: '/admin/campaigns editor dialog',
          include: '[role="dialog"]',
          before: async (shown) => {
            const dialog = shown.getByRole('dialog');
            await expect(dialog).toBeVisible();
            await expect(dialog.getByRole('textbox').first()).toBeVisible();
          },
        })),
      );
      // The image picker, opened from the editor's toolbar with the cursor in the content.
      const editorDialog = page.getByRole('dialog');
      await editorDialog.locator('[contenteditable="true"]').first().click();
      await editorDialog.getByRole('button', { name: words.imageButton, exact: true }).click();
      findings.push(
        ...(await scanAtEachWidth(page, language, {
          where: '/admin/campaigns image picker',
          include: '[role="dialog"]',
          before: async (shown) => {
            await expect(shown.getByRole('dialog', { name: words.pickerTitle })).toBeVisible();
            await expect(
              shown.getByRole('dialog', { name: words.pickerTitle }).locator('img').first(),
            ).toBeVisible();
          },
        })),
      );

      expect(findings, report(findings)).toEqual([]);
    });
  }
});
