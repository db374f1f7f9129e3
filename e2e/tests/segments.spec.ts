import { API_ROUTES, apiPath, type CampaignReportDto, type SegmentDto } from '@agency/contracts';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiUrl, appUrl } from '../support/e2e-env';
import { listMails } from '../support/mail-catcher-client';
import { sendCampaignAndWait } from '../support/sent-campaign';
import {
  demoAdminToken,
  runId,
  sidewaysOverflowAt,
  storeDemoAdminSession,
  waitForSection,
} from './admin-helpers';

/**
 * A segment built in the dashboard targets exactly whom its count said: the
 * addresses MailDev received (SMTP RCPT TO) are the people the rule matches
 * who may be mailed, as many as the builder showed. Everything is unique to
 * the run (domain, tag, list), so other specs' people never match the rule.
 */

type Headers = Record<string, string>;

/** Posts as staff and returns the answer's body, failing with its text on another status. */
async function post<T>(
  request: APIRequestContext,
  headers: Headers,
  [url, data, status]: [string, unknown, number],
): Promise<T> {
  const response = await request.post(apiUrl(url), { headers, data });
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json().catch(() => ({}))) as T;
}

/** Members of one list, by language and tags; one of the matching is then suppressed. */
async function seedPeople(request: APIRequestContext, headers: Headers, run: string) {
  const domain = `segments-${run}.example.com`;
  const tag = `seg${run}`;
  const list = await post<{ id: string }>(request, headers, [
    API_ROUTES.lists,
    { name: `Segments ${run}` },
    201,
  ]);
  const members = [
    { email: `amel@${domain}`, locale: 'fr', tags: [tag] },
    { email: `bilel@${domain}`, locale: 'fr', tags: ['other', tag] },
    { email: `chiraz@${domain}`, locale: 'en', tags: [tag] },
    { email: `dalia@${domain}`, locale: 'fr', tags: ['other'] },
    { email: `emna@${domain}`, locale: 'fr', tags: [tag] },
  ];
  for (const member of members) {
    await post(request, headers, [apiPath(API_ROUTES.listMembers, { id: list.id }), member, 201]);
  }
  // Matched by the rule, but never mailed: the builder counts her apart.
  await post(request, headers, [API_ROUTES.suppressions, { email: `emna@${domain}` }, 201]);
  return { tag, mailable: [`amel@${domain}`, `bilel@${domain}`] };
}

/** Builds "French, tagged <tag>" with the keyboard, and returns the counts it shows. */
async function buildSegment(page: Page, name: string, tag: string) {
  const main = page.getByRole('main');
  await main.getByRole('button', { name: 'New segment' }).press('Enter');
  const builder = page.getByRole('region', { name: 'New segment' });
  await builder.getByRole('textbox', { name: 'Name' }).fill(name);
  // Condition 1 starts on the language, "is": choose French from its menu with the keyboard.
  await builder.getByRole('combobox', { name: 'Value 1' }).press('Enter');
  await page.getByRole('option', { name: 'French' }).press('Enter');
  await expect(builder.getByRole('combobox', { name: 'Value 1' })).toHaveText('French');
  // Condition 2 starts on the tags, "any of".
  await builder.getByRole('button', { name: 'Add a condition' }).press('Enter');
  await builder.getByRole('textbox', { name: 'Value 2' }).fill(tag);
  const status = builder.getByRole('status');
  await expect(status).toHaveText(/^3 people match; 2 can be mailed/);
  const [, matched, mailable] = /^(\d+) people match; (\d+) can be mailed/.exec(
    (await status.textContent()) ?? '',
  ) ?? ['', '', ''];
  return { builder, matched: Number(matched), mailable: Number(mailable) };
}

async function segmentNamed(request: APIRequestContext, headers: Headers, name: string) {
  const response = await request.get(apiUrl(API_ROUTES.segments), {
    headers,
    params: { search: name },
  });
  expect(response.status()).toBe(200);
  const { items } = (await response.json()) as { items: SegmentDto[] };
  expect(items.map((segment) => segment.name)).toEqual([name]);
  return items[0] as SegmentDto;
}

/** Sends a campaign to the segment and waits until the worker says it is sent. */
function sendToSegment(
  request: APIRequestContext,
  headers: Headers,
  { segmentId, subject }: { segmentId: string; subject: string },
) {
  return sendCampaignAndWait(request, headers, {
    subject,
    content: '<p>News for our French-speaking clients.</p>',
    target: { recipientType: 'segments', segmentIds: [segmentId] },
  });
}

test('a segment built in the dashboard mails exactly whom its count said', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const run = runId();
  const headers = { Authorization: `Bearer ${await demoAdminToken(request)}` };
  const { tag, mailable } = await seedPeople(request, headers, run);
  const name = `French ${run}`;

  await page.setViewportSize({ width: 1280, height: 800 });
  await storeDemoAdminSession(page, request);
  await page.goto(appUrl('/admin/people/segments'));
  await waitForSection(page, 'Segments');
  const shown = await buildSegment(page, name, tag);
  expect(shown).toMatchObject({ matched: 3, mailable: 2 });

  // The builder, filled in, on a phone: nothing scrolls sideways.
  const { overflow, outside } = await sidewaysOverflowAt(page, { width: 375, height: 812 });
  expect(overflow, `the builder scrolls sideways: ${outside.join(', ')}`).toBeLessThanOrEqual(0);
  await shown.builder.getByRole('button', { name: 'Save segment' }).press('Enter');
  await expect(page.getByText('Segment saved')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Saved segments' })).toContainText(name);

  const segment = await segmentNamed(request, headers, name);
  const subject = `Segment news ${run}`;
  const campaignId = await sendToSegment(request, headers, { segmentId: segment.id, subject });

  const mails = await listMails(request, { subject });
  const received = mails.flatMap((mail) => mail.envelope.to.map(({ address }) => address));
  expect(received.map((address) => address.toLowerCase()).sort()).toEqual(mailable);
  expect(received).toHaveLength(shown.mailable);

  // The report counts them under the segment they came through.
  const report = await request.get(apiUrl(apiPath(API_ROUTES.campaignReport, { id: campaignId })), {
    headers,
  });
  const { sources } = (await report.json()) as CampaignReportDto;
  expect(sources).toEqual([
    expect.objectContaining({ kind: 'segment', segmentName: name, delivered: shown.mailable }),
  ]);
});
