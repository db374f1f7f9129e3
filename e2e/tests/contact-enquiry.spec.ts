import { expect, test } from '@playwright/test';
import { sendEnquiry, uniqueEnquiry } from '../support/contact-form';
import { appUrl, notificationRecipient } from '../support/e2e-env';
import { waitForMail } from '../support/mail-catcher-client';

test.describe('contact enquiry', () => {
  test('a visitor sends an enquiry and the agency gets it by e-mail', async ({ page, request }) => {
    const enquiry = uniqueEnquiry();

    await sendEnquiry(page, appUrl('/contact'), enquiry);

    // The notification e-mail is half of what this test proves: never pass without it.
    const mail = await waitForMail(request, {
      to: notificationRecipient(),
      containing: enquiry.message,
    });
    const body = `${mail.text ?? ''}\n${mail.html ?? ''}`;
    for (const detail of [enquiry.firstName, enquiry.lastName, enquiry.email, enquiry.phone]) {
      expect(body).toContain(detail);
    }
  });

  test('the empty form says what is missing and stays on the page', async ({ page }) => {
    await page.goto(appUrl('/contact'));
    await page.getByRole('button', { name: 'Send Message' }).click();

    await expect(page.getByText('First name is required').first()).toBeVisible();
    await expect(page).toHaveURL(/\/contact$/);
  });
});
