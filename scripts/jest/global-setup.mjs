// @ts-check
/**
 * Jest global setup: test files need a MongoDB-wire server and Redis. When
 * MONGODB_URI and REDIS_URL are both set (npm test sets them) nothing is
 * started; otherwise throw-away servers are started in a temporary folder,
 * the variables are set for the test workers (which inherit them), and
 * global-teardown.mjs stops them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SetupError } from '../lib/console.mjs';
import { testServerEnv } from '../lib/mongo-server-env.mjs';
import { startServices } from '../lib/services.mjs';

export default async function globalSetup() {
  if (process.env.MONGODB_URI && process.env.REDIS_URL) return;
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-jest-'));
  const stop = async () => {
    await services?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  /** @type {import('../lib/services.mjs').RunningServices | undefined} */
  let services;
  // The teardown may load as another module instance: it finds this on globalThis.
  Object.assign(globalThis, { [Symbol.for('agency.jest.stop')]: stop });
  try {
    services = await startServices({ dataDir, mailCatcher: false, env: testServerEnv() });
    process.env.MONGODB_URI = services.mongodbUri;
    process.env.REDIS_URL = services.redisUrl;
  } catch (error) {
    await stop();
    // Jest prints the stack of whatever is thrown; a setup problem needs one line.
    if (error instanceof SetupError) throw new Error(error.message, { cause: error });
    throw error;
  }
}
