import { API_ROUTES, apiPath, type CampaignReportDto } from '@agency/contracts';
import { expect, type APIRequestContext } from '@playwright/test';
import { demoAdminToken, runId } from '../tests/admin-helpers';
import { apiUrl } from './e2e-env';
import { waitForMail, type CaughtMail } from './mail-catcher-client';

/**
 * A desktop browser as readers have it: the headless agent Playwright
 * announces is, rightly, one of the machine rules' automated agents.
 */
export const READER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Chrome/131.0.0.0 Safari/537.36';

/** A campaign that went out with opens and clicks tracked, to a list of one reader. */
export interface TrackedCampaign {
  campaignId: string;
  name: string;
  subject: string;
  reader: string;
  /** The one link of its content, as written (the mail carries a tracking link instead). */
  link: string;
  /** The reader's copy, from MailDev. */
  mail: CaughtMail;
  headers: Record<string, string>;
}

/** Creates a list of one reader and a tracked campaign to it, sends it and waits for the mail. */
export async function sendTrackedCampaign(request: APIRequestContext): Promise<TrackedCampaign> {
  const id = runId();
  const headers = { Authorization: `Bearer ${await demoAdminToken(request)}` };
  const post = async (url: string, data: unknown, status: number) => {
    const response = await request.post(apiUrl(url), { headers, data });
    expect(response.status(), await response.text()).toBe(status);
    return (await response.json()) as Record<string, unknown>;
  };
  const list = await post(API_ROUTES.lists, { name: `Results ${id}` }, 201);
  const reader = `reader-${id}@example.com`;
  await post(apiPath(API_ROUTES.listMembers, { id: String(list.id) }), { email: reader }, 201);
  const link = `https://offers.example.com/spring-${id}`;
  const name = `Results ${id}`;
  const subject = `Spring offers ${id}`;
  const campaign = await post(
    API_ROUTES.campaigns,
    {
      name,
      subject,
      content: `<p>Hello, see <a href="${link}">our spring offer</a>.</p>`,
      recipientType: 'lists',
      listIds: [String(list.id)],
      tracking: { opens: true, clicks: true },
    },
    201,
  );
  const campaignId = String(campaign.id);
  await post(apiPath(API_ROUTES.campaignSend, { id: campaignId }), {}, 202);
  const mail = await waitForMail(request, { to: reader, subject }, { timeout: 60_000 });
  return { campaignId, name, subject, reader, link, mail, headers };
}

/** The campaign's report, as staff read it through the API. */
export async function reportOf(
  request: APIRequestContext,
  campaign: TrackedCampaign,
): Promise<CampaignReportDto> {
  const response = await request.get(
    apiUrl(apiPath(API_ROUTES.campaignReport, { id: campaign.campaignId })),
    { headers: campaign.headers },
  );
  expect(response.status()).toBe(200);
  return (await response.json()) as CampaignReportDto;
}

/** Waits until the worker has counted one person's open and one person's click. */
export async function waitForOnePersonEach(
  request: APIRequestContext,
  campaign: TrackedCampaign,
): Promise<void> {
  await expect
    .poll(
      async () => {
        const { opens, clicks } = await reportOf(request, campaign);
        return [opens.people.unique, clicks.people.unique];
      },
      { timeout: 30_000, message: 'the worker counts one open and one click by a person' },
    )
    .toEqual([1, 1]);
}

/**
 * A sent campaign with a person's open and click counted, read as a reader's
 * browser would load the mail's image and follow its link (without a page):
 * what a screen showing results needs.
 */
export async function campaignWithResults(request: APIRequestContext): Promise<TrackedCampaign> {
  const campaign = await sendTrackedCampaign(request);
  const html = campaign.mail.html ?? '';
  const pixel = /src="([^"]*\/api\/t\/o\/[^"]+)"/.exec(html)?.[1];
  const click = /href="([^"]*\/api\/t\/c\/[^"]+)"/.exec(html)?.[1];
  if (!pixel || !click) throw new Error('the mail has no open pixel or tracking link');
  const asReader = { headers: { 'User-Agent': READER_AGENT }, maxRedirects: 0 };
  expect((await request.get(pixel, asReader)).status()).toBe(200);
  expect((await request.get(click, asReader)).status()).toBe(302);
  await waitForOnePersonEach(request, campaign);
  return campaign;
}
