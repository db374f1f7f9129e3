import { API_ROUTES } from '@agency/contracts';
import { expect, test, type Locator } from '@playwright/test';
import { MongoClient, ObjectId } from 'mongodb';
import { apiUrl, appUrl, storeOfStack } from '../support/e2e-env';
import { demoAdminToken, runId, storeDemoAdminSession } from './admin-helpers';

/** How far the content of each box around a send's progress passes its edges (0 when it fits). */
function overflowOf(bar: Locator) {
  return bar.evaluate((element) => {
    const delivery = element.parentElement;
    const cell = element.closest('[role="gridcell"]');
    const boxes = [delivery, ...(delivery ? Array.from(delivery.children) : []), cell];
    return boxes
      .filter((box): box is Element => box !== null)
      .map((box) => ({
        box: box.getAttribute('class')?.split(/\s+/).slice(0, 2).join('.') ?? box.tagName,
        sideways: box.scrollWidth - box.clientWidth,
        // Only a box that clips hides what passes its bottom (Arabic marks reach a pixel below a line).
        downwards:
          getComputedStyle(box).overflowY === 'visible' ? 0 : box.scrollHeight - box.clientHeight,
      }));
  });
}

/**
 * The Delivery cell of a campaign paused half-way through 1,952 recipients:
 * the bar and every count in view, in each language, on a desktop (the
 * table) and on a phone (the cards).
 */
test.describe('the Delivery cell of a send in progress', () => {
  let client: MongoClient;
  let campaignId: ObjectId;
  const name = `Delivery ${runId()}`;

  test.beforeAll(async ({ request }) => {
    const token = await demoAdminToken(request);
    const response = await request.post(apiUrl(API_ROUTES.campaigns), {
      headers: { Authorization: `Bearer ${token}` },
      data: { name, subject: `Progress ${name}`, content: '<p>Counts.</p>', recipientType: 'all' },
    });
    expect(response.status(), await response.text()).toBe(201);
    campaignId = new ObjectId(String(((await response.json()) as { id: string }).id));
    // Paused with its counts as a send of 1,952 leaves them: no worker takes a paused campaign up.
    client = await MongoClient.connect(storeOfStack().mongodbUri);
    const now = new Date();
    await client
      .db()
      .collection('campaigns')
      .updateOne(
        { _id: campaignId },
        {
          $set: {
            status: 'paused',
            total: 1952,
            sentCount: 1234,
            failedCount: 118,
            queuedAt: now,
            startedAt: now,
            pausedAt: now,
            dispatchedRound: 1,
          },
        },
      );
  });
  test.afterAll(async () => {
    await client.db().collection('campaigns').deleteOne({ _id: campaignId });
    await client.close();
  });

  for (const [locale, width] of [
    ['en', 1280],
    ['en', 375],
    ['fr', 1280],
    ['ar', 1280],
    ['ar', 375],
  ] as const) {
    test(`fits its cell in ${locale} at ${width} px`, async ({ page, request }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.addInitScript((language) => {
        window.localStorage.setItem('i18nextLng', language);
      }, locale);
      await storeDemoAdminSession(page, request);
      await page.goto(appUrl(`/admin/campaigns?search=${encodeURIComponent(name)}`));

      const bar = page.getByRole('progressbar', { name: new RegExp(name) });
      // The progress read from the server: 1,352 of 1,952 settled.
      // The first admin page of a run loads its lazy screens on a busy machine: more than the default wait.
      await expect(bar).toHaveAttribute('aria-valuenow', '69.3', { timeout: 30_000 });
      const overflow = await overflowOf(bar);
      // The bar and the counts, and on a desktop the table's cell around them.
      expect(overflow).toHaveLength(width === 1280 ? 4 : 3);
      for (const { box, sideways, downwards } of overflow) {
        expect(sideways, `${box} is cut off sideways`).toBeLessThanOrEqual(0);
        expect(downwards, `${box} is cut off at the bottom`).toBeLessThanOrEqual(0);
      }
    });
  }
});
