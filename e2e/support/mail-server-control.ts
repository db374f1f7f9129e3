import { expect, type APIRequestContext } from '@playwright/test';
import { stackControlUrl } from './e2e-env';

/**
 * Takes the e2e stack's SMTP server (its MailDev) away and brings it back,
 * as an outage would: once `stopMailServer` resolves, connections to it are
 * refused; once `startMailServer` resolves, it accepts mail again and still
 * lists every mail caught before.
 */
async function control(request: APIRequestContext, action: 'stop' | 'start'): Promise<void> {
  const response = await request.post(
    new URL(`/mail-catcher/${action}`, stackControlUrl()).toString(),
    {
      timeout: 30_000,
    },
  );
  expect(response.status(), `the e2e stack could not ${action} its MailDev`).toBe(204);
}

export const stopMailServer = (request: APIRequestContext) => control(request, 'stop');
export const startMailServer = (request: APIRequestContext) => control(request, 'start');
