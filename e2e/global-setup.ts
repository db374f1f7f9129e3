import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type FullConfig } from '@playwright/test';
import { startMailCatcher } from '../scripts/lib/mail-catcher.mjs';
import { findRepoRoot } from '../scripts/lib/repo-root.mjs';
import { startServices, withDatabaseName } from '../scripts/lib/services.mjs';
import { SetupError } from '../scripts/lib/setup-error.mjs';
import { assertAppIsBuilt, DEFAULT_MAIL_TO, startStack } from '../scripts/lib/stack.mjs';
import { rememberCleanup, runCleanups } from './support/e2e-state';

const E2E_DATABASE = 'agency_e2e';
const E2E_QUEUE_PREFIX = 'agency-e2e';

/**
 * Starts the built app for the specs, unless E2E_BASE_URL points at a running
 * one: its own mail catcher, then MongoDB/Redis (taken from MONGODB_URI /
 * REDIS_URL when set, else throw-away servers), then API, worker and web.
 * The URLs reach the specs as E2E_* environment variables.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  if (process.env.E2E_BASE_URL) {
    console.log(`e2e: testing the running app at ${process.env.E2E_BASE_URL}`);
    return;
  }
  const rootDir = findRepoRoot(config.configFile ? dirname(config.configFile) : process.cwd());
  try {
    assertAppIsBuilt(rootDir);
    await startEverything(rootDir);
  } catch (error) {
    await runCleanups();
    // A missing build or program needs one clear line, not a stack trace.
    if (error instanceof SetupError) throw new Error(error.message, { cause: error });
    throw error;
  }
}

async function startEverything(rootDir: string): Promise<void> {
  let { MONGODB_URI: mongodbUri, REDIS_URL: redisUrl } = process.env;
  if (!mongodbUri || !redisUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'agency-e2e-'));
    rememberCleanup(() => rmSync(dataDir, { recursive: true, force: true }));
    const services = await startServices({ dataDir, smtp: 'none' });
    rememberCleanup(services.stop);
    mongodbUri = services.mongodbUri;
    redisUrl = services.redisUrl;
  }

  const catcher = await startMailCatcher();
  rememberCleanup(catcher.stop);

  const mailTo = process.env.MAIL_TO || DEFAULT_MAIL_TO;
  const stack = await startStack({
    rootDir,
    mongodbUri: withDatabaseName(mongodbUri, E2E_DATABASE),
    redisUrl,
    smtpUrl: catcher.smtpUrl,
    queuePrefix: E2E_QUEUE_PREFIX,
    mailTo,
    demoMode: false,
    logLevel: process.env.LOG_LEVEL || 'warn',
    env: { CONTACT_RATE_LIMIT_MAX: '1000' },
  });
  rememberCleanup(stack.stop);

  process.env.E2E_BASE_URL = stack.webUrl;
  process.env.E2E_API_URL = stack.apiUrl;
  process.env.E2E_MAIL_CATCHER_URL = catcher.httpUrl;
  process.env.E2E_MAIL_TO = mailTo;
  console.log(`e2e: app ${stack.webUrl}, API ${stack.apiUrl}, mail catcher ${catcher.httpUrl}`);
}
