import { expect, test } from '@playwright/test';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { MongoClient } from 'mongodb';
import { API_ROUTES, QUEUE_NAMES, SERVICE_SLUGS } from '@agency/contracts';
import { appUrl, demoAdmin, storeOfStack } from '../support/e2e-env';
import { runId } from './admin-helpers';

const ENQUIRIES = 20_000;

/**
 * One pass of the worker's reconciliation, asked for now rather than at its
 * next interval: what the bulk writes left uncounted is counted by the real
 * worker of the stack, as after an import.
 */
async function reconcileNow(): Promise<void> {
  const { redisUrl, queuePrefix } = storeOfStack();
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const events = new QueueEvents(QUEUE_NAMES.statsReconcile, {
    connection: connection.duplicate(),
    prefix: queuePrefix,
  });
  const queue = new Queue(QUEUE_NAMES.statsReconcile, { connection, prefix: queuePrefix });
  try {
    await events.waitUntilReady();
    const job = await queue.add(QUEUE_NAMES.statsReconcile, {});
    await job.waitUntilFinished(events, 180_000);
  } finally {
    await queue.close();
    await events.close();
    connection.disconnect();
  }
}

test.describe('the dashboard with 20,000 enquiries', () => {
  test.describe.configure({ timeout: 300_000 });
  const seed = `scale${runId()}`;
  const seededEmail = new RegExp(`^${seed}-`);
  let client: MongoClient;

  test.beforeAll(async () => {
    // The describe's timeout covers its tests, not this hook. Seeding 20,000
    // enquiries and the reconciliation that counts them (and, since contacts
    // are found by domain, adds their search keys) take about a minute here.
    test.setTimeout(300_000);
    client = await MongoClient.connect(storeOfStack().mongodbUri);
    const contacts = client.db().collection('contacts');
    const now = Date.now();
    for (let offset = 0; offset < ENQUIRIES; offset += 2000) {
      await contacts.insertMany(
        Array.from({ length: 2000 }, (_, index) => {
          const n = offset + index;
          // A few today, the rest spread over two years.
          const createdAt = new Date(n < 20 ? now - n * 60_000 : now - (n % 730) * 86_400_000);
          const email = `${seed}-${n}@example.tn`;
          return {
            firstName: 'Imported',
            lastName: `Visitor ${n}`,
            email,
            service: SERVICE_SLUGS[n % SERVICE_SLUGS.length],
            message: 'Imported from the previous contact form.',
            locale: 'fr',
            status: 'new',
            searchTerms: ['imported', `visitor ${n}`, email],
            lastNameKey: `visitor ${n}`,
            createdAt,
            updatedAt: createdAt,
          };
        }),
        { ordered: false },
      );
    }
    await reconcileNow();
  });

  test.afterAll(async () => {
    await client.db().collection('contacts').deleteMany({ email: seededEmail });
    await reconcileNow();
    await client.close();
  });

  test('at 375 px shows its figures within 1 s of sign-in', async ({ page }) => {
    const total = await client.db().collection('contacts').countDocuments({});
    expect(total).toBeGreaterThanOrEqual(ENQUIRIES);
    const { username, password } = demoAdmin();
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(appUrl('/admin/login'));
    await page.getByRole('textbox', { name: 'Username or email' }).fill(username);
    await page.getByLabel(/^Password/).fill(password);

    const signedIn = page.waitForResponse(
      (response) => response.url().endsWith(API_ROUTES.login) && response.status() === 200,
    );
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await signedIn;
    const deadline = Date.now() + 1000;
    const left = () => ({ timeout: Math.max(1, deadline - Date.now()) });

    const figures = page.getByRole('region', { name: 'Key figures' });
    await expect(figures.getByText(total.toLocaleString('en-US'), { exact: true })).toBeVisible(
      left(),
    );
    await expect(figures.getByText(/^\+\d+ today$/)).toBeVisible(left());
    // Every card has its figure: no placeholder is left.
    await expect(figures.locator('.MuiSkeleton-root')).toHaveCount(0, left());
    for (const card of ['Newsletter Subscribers', 'Email Campaigns', "This Week's Contacts"]) {
      await expect(
        figures.getByRole('heading', { name: card }).locator('xpath=following-sibling::p[1]'),
      ).toHaveText(/^\d[\d,]*$/, left());
    }
  });
});
