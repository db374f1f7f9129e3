import { expect, test, type Page } from '@playwright/test';
import { MongoClient } from 'mongodb';
import { appUrl, storeOfStack } from '../support/e2e-env';
import { listMails, waitForMail } from '../support/mail-catcher-client';
import { runId, sendEnquiryByApi, storeDemoAdminSession, waitForSection } from './admin-helpers';

interface Draft {
  name: string;
  subject: string;
}

/** Writes a campaign to the enquiry contacts through the Mail Manager's modal. */
async function writeCampaign(page: Page): Promise<Draft> {
  const id = runId();
  const draft = { name: `E2E campaign ${id}`, subject: `Our autumn packs ${id}` };
  await page.goto(appUrl('/admin/campaigns'));
  await waitForSection(page, 'Mail Manager');
  await page.getByRole('button', { name: 'New Campaign' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New Campaign' });
  await dialog.getByLabel(/^Campaign name/).fill(draft.name);
  await dialog.getByLabel(/^Email subject/).fill(draft.subject);
  await dialog
    .getByRole('textbox', { name: 'Content', exact: true })
    .fill(`Three packs for the season (${id}).`);
  await dialog.getByRole('combobox', { name: 'Recipients' }).click();
  await page.getByRole('option', { name: /^Enquiry contacts/ }).click();
  await dialog.getByRole('button', { name: 'Create Campaign' }).click();
  await expect(page.getByText('Campaign created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  return draft;
}

/**
 * Every distinct address of an enquiry that ticked "send me news": who a
 * campaign to "contacts" must reach (the other specs' enquiries did not).
 */
async function contactAddresses(): Promise<string[]> {
  const client = await MongoClient.connect(storeOfStack().mongodbUri);
  try {
    const consented = await client
      .db()
      .collection<{ email: string }>('contacts')
      .find({ 'consent.requestedAt': { $exists: true } }, { projection: { email: 1 } })
      .toArray();
    return [...new Set(consented.map((contact) => contact.email.toLowerCase()))];
  } finally {
    await client.close();
  }
}

const withoutConsent = `campaign-silent-${runId()}@example.com`;

test.describe('Mail Manager', () => {
  test.beforeAll(async ({ request }) => {
    await sendEnquiryByApi(request, `campaign-a-${runId()}@example.com`, {
      newsletterConsent: true,
    });
    await sendEnquiryByApi(request, `campaign-b-${runId()}@example.com`, {
      newsletterConsent: true,
    });
    await sendEnquiryByApi(request, withoutConsent);
  });

  test('a campaign is written as a draft, and Send asks first, naming its audience', async ({
    page,
    request,
  }) => {
    await storeDemoAdminSession(page, request);
    const draft = await writeCampaign(page);
    const row = page.getByRole('row').filter({ hasText: draft.name });
    await expect(row).toContainText('Draft');
    await expect(row).toContainText('Not sent yet');
    const audience = (await contactAddresses()).length;

    await row.getByRole('button', { name: `Send ${draft.name}` }).click();
    const confirm = page.getByRole('dialog', { name: `Send “${draft.name}”?` });
    await expect(confirm).toContainText(
      `It will be mailed to ${audience.toLocaleString('en-US')} recipients (contacts).`,
    );
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(row).toContainText('Draft');
  });

  test("a campaign is sent, shows its progress, reaches 'sent' and every recipient has the mail", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await storeDemoAdminSession(page, request);
    const draft = await writeCampaign(page);
    const recipients = await contactAddresses();
    expect(recipients.length).toBeGreaterThanOrEqual(2);
    const row = page.getByRole('row').filter({ hasText: draft.name });

    await row.getByRole('button', { name: `Send ${draft.name}` }).click();
    const confirm = page.getByRole('dialog', { name: `Send “${draft.name}”?` });
    await expect(confirm).toContainText(`It will be mailed to ${recipients.length}`);
    await confirm.getByRole('button', { name: 'Send Now' }).click();
    await expect(page.getByText('Campaign sent successfully')).toBeVisible();

    // The row follows the send live until it ends, without a reload.
    await expect(row).toContainText('Sent', { timeout: 90_000 });
    await expect(page.getByText(`“${draft.name}” has been sent`)).toBeVisible();
    await expect(row).toContainText(`${recipients.length} sent · 0 failed`);

    for (const address of recipients) {
      const mail = await waitForMail(request, { to: address, subject: draft.subject });
      expect(mail.subject).toBe(draft.subject);
    }
    // An enquiry that did not tick "send me news" is not mailed.
    expect(await listMails(request, { to: withoutConsent, subject: draft.subject })).toEqual([]);
  });

  test('a test of a draft goes only to an address an admin allows, and the draft stays a draft', async ({
    page,
    request,
  }) => {
    await storeDemoAdminSession(page, request);
    const address = `proof-${runId()}@example.com`;
    // An admin allows the address in Settings, from the keyboard.
    await page.goto(appUrl('/admin/settings'));
    await waitForSection(page, 'Settings');
    const entry = page.getByRole('textbox', { name: /^Address or domain/ });
    await entry.fill(address);
    await entry.press('Enter');
    await expect(page.getByText('Test mail recipients saved')).toBeVisible();
    await expect(
      page.getByRole('list', { name: 'Allowed test recipients' }).getByText(address),
    ).toBeVisible();

    const draft = await writeCampaign(page);
    const row = page.getByRole('row').filter({ hasText: draft.name });
    await row.getByRole('button', { name: `Send a test of ${draft.name}` }).click();
    const dialog = page.getByRole('dialog', { name: `Send a test of “${draft.name}”` });
    const email = dialog.getByRole('textbox', { name: /^Email address/ });
    await email.fill('not-an-address');
    await dialog.getByRole('button', { name: 'Send Test' }).click();
    await expect(dialog.getByText('Please enter a valid email address')).toBeVisible();

    // Anyone else is refused by the server, the reason under the field.
    await email.fill(`stranger-${runId()}@example.org`);
    await email.press('Enter');
    await expect(email).toHaveAccessibleDescription(
      'Test mail goes only to staff addresses or to addresses an admin allows',
    );

    await email.fill(address);
    await email.press('Enter');
    await expect(page.getByText('Test e-mail sent')).toBeVisible();
    await expect(dialog).toBeHidden();

    const mail = await waitForMail(request, { to: address, subject: draft.subject });
    expect(mail.subject).toBe(`[Test] ${draft.subject}`);
    await expect(row).toContainText('Draft');
    await expect(row).toContainText('Not sent yet');
  });

  test('a campaign is duplicated as a draft that opens in the editor, and French starts from English', async ({
    page,
    request,
  }) => {
    await storeDemoAdminSession(page, request);
    const draft = await writeCampaign(page);
    const row = page.getByRole('row').filter({ hasText: draft.name });
    const copyName = `Copy of ${draft.name}`;

    await row.getByRole('button', { name: `Duplicate ${draft.name}` }).click();
    await expect(page.getByText(`“${copyName}” created as a draft`)).toBeVisible();
    const editor = page.getByRole('dialog', { name: 'Edit Campaign' });
    await expect(editor.getByLabel(/^Campaign name/)).toHaveValue(copyName);

    await editor.getByRole('tab', { name: 'French' }).click();
    await editor.getByRole('button', { name: 'Copy from English' }).click();
    await expect(editor.getByLabel(/^Email subject/)).toHaveValue(draft.subject);
    await editor.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Campaign updated successfully')).toBeVisible();

    const copy = page.getByRole('row').filter({ hasText: copyName });
    await expect(copy).toContainText('Draft');
    await expect(copy).toContainText('Not sent yet');
  });
});
