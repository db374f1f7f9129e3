import { type APIRequestContext } from '@playwright/test';
import { type CaughtMessage } from '../../scripts/lib/mail-catcher.mjs';

/** The newest caught message whose text or HTML contains `needle`, if any. */
export async function findMessageContaining(
  request: APIRequestContext,
  catcherUrl: string,
  needle: string,
): Promise<CaughtMessage | undefined> {
  const response = await request.get(new URL('/api/messages', catcherUrl).toString());
  if (!response.ok()) throw new Error(`Mail catcher answered ${response.status()}`);
  const messages = (await response.json()) as CaughtMessage[];
  return messages.find(
    (message) => message.text.includes(needle) || (message.html ?? '').includes(needle),
  );
}
