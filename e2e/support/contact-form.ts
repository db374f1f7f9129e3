import { expect, type Page } from '@playwright/test';
import { chooseOption } from './form-fields';

export interface Enquiry {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  message: string;
}

/** An enquiry whose message no other run sends, so its mail can be told apart. */
export function uniqueEnquiry(): Enquiry {
  const runId = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `ada.${runId}@example.com`,
    phone: '+44 20 7946 0958',
    message: `E2E enquiry ${runId}: we would like a new website.`,
  };
}

/** Fills the contact form at `contactUrl` as a visitor would and waits for the thank-you page. */
export async function sendEnquiry(page: Page, contactUrl: string, enquiry: Enquiry) {
  // By role: the form's own name ("Send us a message") also contains "message".
  // Exact: the footer's newsletter field ("Email address") also contains "Email".
  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  await page.goto(contactUrl);
  await field('First Name').fill(enquiry.firstName);
  await field('Last Name').fill(enquiry.lastName);
  await field('Email').fill(enquiry.email);
  await field('Phone').fill(enquiry.phone);
  await chooseOption(page, 'Service', 'Web Design & Development');
  await field('Message').fill(enquiry.message);
  await page.getByRole('button', { name: 'Send Message' }).click();
  await expect(page).toHaveURL(/\/thank-you$/);
}
