import { expect, test } from '@playwright/test';
import { type CaughtMessage } from '../../scripts/lib/mail-catcher.mjs';
import { appUrl, mailCatcherUrl, notificationRecipient } from '../support/e2e-env';
import { chooseOption } from '../support/form-fields';
import { findMessageContaining } from '../support/mail-catcher-client';

const MAIL_WAIT_MS = 15_000;

test.describe('contact enquiry', () => {
  test('a visitor sends an enquiry and the agency gets it by e-mail', async ({ page, request }) => {
    const runId = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const visitor = {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: `ada.${runId}@example.com`,
      phone: '+44 20 7946 0958',
    };
    const uniqueText = `E2E enquiry ${runId}: we would like a new website.`;

    // By role: the form's own name ("Send us a message") also contains "message".
    const field = (name: string) => page.getByRole('textbox', { name });
    await page.goto(appUrl('/contact'));
    await field('First Name').fill(visitor.firstName);
    await field('Last Name').fill(visitor.lastName);
    await field('Email').fill(visitor.email);
    await field('Phone').fill(visitor.phone);
    await chooseOption(page, 'Service', 'Web Design & Development');
    await field('Message').fill(uniqueText);
    await page.getByRole('button', { name: 'Send Message' }).click();

    await expect(page).toHaveURL(/\/thank-you$/);

    // The notification e-mail is half of what this test proves: never pass without it.
    const catcherUrl = mailCatcherUrl();
    if (!catcherUrl) throw new Error('E2E_MAIL_CATCHER_URL must be set to check the notification');
    let message: CaughtMessage | undefined;
    await expect
      .poll(
        async () => {
          message = await findMessageContaining(request, catcherUrl, uniqueText);
          return message !== undefined;
        },
        { timeout: MAIL_WAIT_MS, message: 'the enquiry notification e-mail arrives' },
      )
      .toBe(true);

    const body = `${message?.text ?? ''}\n${message?.html ?? ''}`;
    for (const detail of Object.values(visitor)) expect(body).toContain(detail);
    expect([...(message?.to ?? []), ...(message?.envelope.to ?? [])]).toContain(
      notificationRecipient(),
    );
  });

  test('the empty form says what is missing and stays on the page', async ({ page }) => {
    await page.goto(appUrl('/contact'));
    await page.getByRole('button', { name: 'Send Message' }).click();

    await expect(page.getByText('First name is required').first()).toBeVisible();
    await expect(page).toHaveURL(/\/contact$/);
  });
});
