// @ts-check
/**
 * Jest global setup: test files need a MongoDB-wire server, Redis and (the
 * media library's) an S3-compatible server. When MONGODB_URI, REDIS_URL and
 * MEDIA_TEST_S3_ENDPOINT are all set (npm test sets them) nothing is
 * started; otherwise throw-away servers are started in a temporary folder,
 * the variables are set for the test workers (which inherit them), and
 * global-teardown.mjs stops them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SetupError } from '../lib/console.mjs';
import { testServerEnv } from '../lib/mongo-server-env.mjs';
import { s3TestEnv, startServices } from '../lib/services.mjs';

export default async function globalSetup() {
  const { MONGODB_URI, REDIS_URL, MEDIA_TEST_S3_ENDPOINT } = process.env;
  if (MONGODB_URI && REDIS_URL && MEDIA_TEST_S3_ENDPOINT) return;
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
    services = await startServices({
      dataDir,
      mailCatcher: false,
      s3: true,
      env: testServerEnv(),
    });
    process.env.MONGODB_URI = services.mongodbUri;
    process.env.REDIS_URL = services.redisUrl;
    if (services.s3) Object.assign(process.env, s3TestEnv(services.s3));
  } catch (error) {
    await stop();
    // Jest prints the stack of whatever is thrown; a setup problem needs one line.
    if (error instanceof SetupError) throw new Error(error.message, { cause: error });
    throw error;
  }
}
