/**
 * What the specs know of the app under test. The e2e stack that Playwright's
 * webServer starts hands it over as one E2E_STACK line of JSON; to test an
 * app that is already running, set E2E_BASE_URL (and the other E2E_*
 * variables below that your specs need) instead.
 */
interface E2eStack {
  baseUrl: string;
  apiUrl: string;
  mailCatcherUrl: string;
  mailTo: string;
  demoAdmin?: { username: string; email: string; password: string };
  chromiumPath?: string;
  store?: { mongodbUri: string; redisUrl: string; queuePrefix: string };
  /** The e2e stack's control of its MailDev (scripts/e2e-stack.mjs). */
  controlUrl?: string;
}

/** The line of the e2e stack's output that Playwright turns into process.env.E2E_STACK. */
export const E2E_STACK_LINE = /E2E_STACK=(?<e2e_stack>\{.*\})\n/;

function stack(): Partial<E2eStack> {
  return process.env.E2E_STACK ? (JSON.parse(process.env.E2E_STACK) as E2eStack) : {};
}

function setting(variable: string, fromStack: string | undefined): string {
  const value = process.env[variable] || fromStack;
  if (!value) {
    throw new Error(`${variable} is not set: run the suite through e2e/playwright.config.ts`);
  }
  return value;
}

/** Absolute URL of a page of the web app under test. */
export function appUrl(path: string): string {
  return new URL(path, setting('E2E_BASE_URL', stack().baseUrl)).toString();
}

/** Absolute URL of an API route (the web app also proxies /api to it). */
export function apiUrl(path: string): string {
  return new URL(path, setting('E2E_API_URL', stack().apiUrl)).toString();
}

/** The MailDev that catches every mail the stack sends (web inbox and REST API). */
export function mailCatcherUrl(): string {
  return setting('E2E_MAIL_CATCHER_URL', stack().mailCatcherUrl);
}

/** Where the stack sends enquiry notifications (the worker's MAIL_TO). */
export function notificationRecipient(): string {
  return setting('E2E_MAIL_TO', stack().mailTo);
}

/** The demo admin the stack seeds (it runs in demo mode), to sign in with. */
export function demoAdmin(): { username: string; email: string; password: string } {
  const seeded = stack().demoAdmin;
  return {
    username: setting('E2E_ADMIN_USERNAME', seeded?.username),
    email: setting('E2E_ADMIN_EMAIL', seeded?.email),
    password: setting('E2E_ADMIN_PASSWORD', seeded?.password),
  };
}

/**
 * The stack's MongoDB database, Redis and queue prefix, for specs that write
 * in bulk behind the API (as an import would) and ask the worker to count it.
 */
export function storeOfStack(): { mongodbUri: string; redisUrl: string; queuePrefix: string } {
  const store = stack().store;
  return {
    mongodbUri: setting('E2E_MONGODB_URI', store?.mongodbUri),
    redisUrl: setting('E2E_REDIS_URL', store?.redisUrl),
    queuePrefix: setting('E2E_QUEUE_PREFIX', store?.queuePrefix),
  };
}

/** Where the e2e stack takes its MailDev away and back (an app of your own has no such control). */
export function stackControlUrl(): string {
  return setting('E2E_STACK_CONTROL_URL', stack().controlUrl);
}

/** Chromium from the system: Playwright's own browser downloads are not reachable here. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || stack().chromiumPath || '/usr/bin/chromium';
}
