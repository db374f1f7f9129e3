import { API_ROUTES, apiPath } from '@agency/contracts';
import { expect, type APIRequestContext } from '@playwright/test';
import { apiUrl } from './e2e-env';

/** Who a campaign made through the API mails: lists or segments, by id. */
export type CampaignTarget =
  | { recipientType: 'lists'; listIds: string[] }
  | { recipientType: 'segments'; segmentIds: string[] };

/**
 * Makes a campaign through the admin API (the editor has specs of its own),
 * sends it, and waits until the worker says it is sent; answers its id.
 */
export async function sendCampaignAndWait(
  request: APIRequestContext,
  headers: Record<string, string>,
  { subject, content, target }: { subject: string; content: string; target: CampaignTarget },
): Promise<string> {
  const created = await request.post(apiUrl(API_ROUTES.campaigns), {
    headers,
    data: { name: subject, subject, content, ...target },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const sent = await request.post(apiUrl(apiPath(API_ROUTES.campaignSend, { id })), { headers });
  expect(sent.status(), await sent.text()).toBe(202);
  await expect
    .poll(
      async () => {
        const response = await request.get(apiUrl(apiPath(API_ROUTES.campaign, { id })), {
          headers,
        });
        return ((await response.json()) as { status: string }).status;
      },
      { timeout: 60_000, message: `the campaign "${subject}" is sent` },
    )
    .toBe('sent');
  return id;
}
