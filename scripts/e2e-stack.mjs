// @ts-check
/**
 * The stack the Playwright suite tests, started by the webServer option of
 * e2e/playwright.config.ts: the built app in demo mode with its own MailDev,
 * database `agency_e2e` and queue prefix `agency-e2e`, on the MongoDB/Redis
 * of MONGODB_URI/REDIS_URL or on throw-away ones. When it is up it prints one
 * `E2E_STACK={...}` line that Playwright hands to the specs; SIGTERM stops it.
 * A control on loopback lets a spec stop and start again its MailDev
 * (`POST /mail-catcher/stop`, `POST /mail-catcher/start`): an SMTP outage
 * mid-send, without touching the app.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reportFatalError } from './lib/console.mjs';
import { startStack } from './lib/stack.mjs';
import { ensureSystemPrograms } from './lib/system-deps.mjs';

const rootDir = fileURLToPath(new URL('..', import.meta.url));
const QUEUE_PREFIX = 'agency-e2e';
const dataDir = mkdtempSync(join(tmpdir(), 'agency-e2e-'));
/** @type {(() => Promise<void>) | undefined} */
let stopStack;
/** @type {import('node:http').Server | undefined} */
let control;
let stopping = false;

/** @param {number} exitCode */
async function stop(exitCode) {
  if (stopping) return;
  stopping = true;
  control?.close();
  await stopStack?.().catch(reportFatalError);
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(exitCode);
}
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.once(signal, () => void stop(0));
}

/**
 * The specs' control of the stack's MailDev; answers once it is done
 * (stopped: its SMTP port refuses connections; started: it answers again).
 * @param {import('./lib/services.mjs').MailCatcherControl | undefined} mailCatcher
 * @returns {Promise<string>} its URL
 */
async function startControl(mailCatcher) {
  /** @type {Record<string, (() => Promise<void>) | undefined>} */
  const actions = {
    'POST /mail-catcher/stop': mailCatcher?.stop,
    'POST /mail-catcher/start': mailCatcher?.start,
  };
  control = createServer((request, response) => {
    const action = actions[`${request.method} ${request.url}`];
    if (!action) {
      response.writeHead(404).end();
      return;
    }
    action().then(
      () => response.writeHead(204).end(),
      (/** @type {unknown} */ error) => response.writeHead(500).end(String(error)),
    );
  });
  const server = control;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the e2e control has no port');
  return `http://127.0.0.1:${address.port}`;
}

try {
  const { chromium } = await ensureSystemPrograms({ chromium: true });
  const stack = await startStack({
    rootDir,
    dataDir,
    // Its own MailDev even when SMTP_URL is set: the specs read the mail.
    env: { ...process.env, SMTP_URL: undefined },
    demoMode: true,
    databaseName: 'agency_e2e',
    runSettings: {
      QUEUE_PREFIX: QUEUE_PREFIX,
      LOG_LEVEL: process.env.LOG_LEVEL || 'warn',
      // Every spec sends enquiries from the same address.
      CONTACT_RATE_LIMIT_MAX: '1000',
      // The demo admin signs in with its password alone, as every spec of
      // another screen does; managers must enrol, which the two-factor spec tests.
      TWO_FACTOR_REQUIRED_ROLES: 'manager',
      // The mail-server spec stops MailDev mid-send: the worker looks for it
      // again every 2 s (10 by default), so the spec sees sending resume quickly.
      SMTP_PROBE_INTERVAL_SECONDS: '2',
    },
  });
  stopStack = stack.stop;
  const controlUrl = await startControl(stack.mailCatcher);
  const handedToSpecs = {
    baseUrl: stack.webUrl,
    apiUrl: stack.apiUrl,
    mailCatcherUrl: stack.mailCatcherUrl,
    mailTo: stack.mailTo,
    demoAdmin: stack.demoAdmin,
    chromiumPath: chromium,
    controlUrl,
    // For specs that seed data in bulk behind the API, as an import would.
    store: { mongodbUri: stack.mongodbUri, redisUrl: stack.redisUrl, queuePrefix: QUEUE_PREFIX },
  };
  console.log(
    `e2e stack: app ${stack.webUrl}, API ${stack.apiUrl}, MailDev ${stack.mailCatcherUrl}`,
  );
  console.log(`E2E_STACK=${JSON.stringify(handedToSpecs)}`);
  const crash = await stack.unexpectedExit;
  if (!stopping) console.error(`e2e stack: ${crash}`);
  await stop(1);
} catch (error) {
  reportFatalError(error);
  await stop(1);
}
