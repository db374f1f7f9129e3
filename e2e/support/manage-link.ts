import { API_ROUTES, apiPath, NEWSLETTER_PAGES } from '@agency/contracts';
import { expect, type APIRequestContext } from '@playwright/test';
import { apiUrl, appUrl } from './e2e-env';
import { waitForMail, type CaughtMail, type MailQuery } from './mail-catcher-client';
import { sendCampaignAndWait } from './sent-campaign';

/**
 * The site's address of a link a caught mail carries to `page` (with its
 * token and language), on the app this run tests: the HTML escapes `&`.
 */
export function siteLinkIn(mail: CaughtMail, page: string): string {
  const pattern = new RegExp(`href="([^"]*${page.replace(/\//g, '\\/')}\\?[^"]*)"`);
  const href = pattern.exec(mail.html ?? '')?.[1];
  if (!href) throw new Error(`no link to ${page} in the mail "${mail.subject}"`);
  const url = new URL(href.replace(/&amp;/g, '&'));
  return appUrl(`${url.pathname}${url.search}`);
}

/**
 * The "Manage your subscription" link of the newest mail matching `query`:
 * the newsletter's confirmation mail and every campaign mail carry one.
 */
export async function manageUrlFromMail(
  request: APIRequestContext,
  query: MailQuery,
): Promise<string> {
  return siteLinkIn(await waitForMail(request, query), NEWSLETTER_PAGES.preferences);
}

/**
 * Signs `email` up through the API (the form has a spec of its own) and
 * confirms it with its mail's link, as the person would: the answer is the
 * confirmation mail, which also carries the manage link.
 */
export async function confirmedSubscriber(
  request: APIRequestContext,
  email: string,
  listIds: string[] = [],
): Promise<CaughtMail> {
  const signUp = await request.post(apiUrl(API_ROUTES.newsletter), {
    data: { email, locale: 'en', ...(listIds.length > 0 ? { listIds } : {}) },
  });
  expect(signUp.status()).toBe(202);
  const mail = await waitForMail(request, { to: email, subject: 'Confirm' });
  const token = new URL(siteLinkIn(mail, NEWSLETTER_PAGES.confirm)).searchParams.get('token');
  const confirmed = await request.post(apiUrl(API_ROUTES.newsletterConfirm), { data: { token } });
  expect(confirmed.status()).toBe(200);
  return mail;
}

/**
 * Where a person's journey to their preference page starts: a campaign mail.
 * Staff put `email` on a private list of the run and send it a campaign
 * through the admin API; the answer is that mail's manage link.
 */
export async function manageUrlFromCampaignMail(
  request: APIRequestContext,
  { email, run, adminToken }: { email: string; run: string; adminToken: string },
): Promise<string> {
  const headers = { Authorization: `Bearer ${adminToken}` };
  const list = await request.post(apiUrl(API_ROUTES.lists), {
    headers,
    data: { name: `Clients ${run}` },
  });
  expect(list.status(), await list.text()).toBe(201);
  const { id: listId } = (await list.json()) as { id: string };
  const member = await request.post(apiUrl(apiPath(API_ROUTES.listMembers, { id: listId })), {
    headers,
    data: { email, locale: 'en' },
  });
  expect(member.status(), await member.text()).toBe(201);
  const subject = `Spring news ${run}`;
  await sendCampaignAndWait(request, headers, {
    subject,
    content: '<p>Our spring offers are here.</p>',
    target: { recipientType: 'lists', listIds: [listId] },
  });
  return manageUrlFromMail(request, { to: email, subject });
}
