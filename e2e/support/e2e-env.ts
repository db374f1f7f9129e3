/**
 * What the global setup (or the person running the suite) hands to the specs
 * through environment variables.
 */

/** @param name an environment variable the global setup always sets */
function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite through e2e/playwright.config.ts`);
  return value;
}

/** Absolute URL of a page of the web app under test. */
export function appUrl(path: string): string {
  return new URL(path, requiredEnv('E2E_BASE_URL')).toString();
}

/** The mail catcher's base URL, when there is one to read mail from. */
export function mailCatcherUrl(): string | undefined {
  return process.env.E2E_MAIL_CATCHER_URL || undefined;
}

/** Where the stack sends enquiry notifications (its MAIL_TO). */
export function notificationRecipient(): string {
  return process.env.E2E_MAIL_TO || 'hello@agency.local';
}
