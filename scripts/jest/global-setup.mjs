// @ts-check
/**
 * Jest global setup: test files need a MongoDB-wire server and Redis. When
 * MONGODB_URI and REDIS_URL are both set (npm test sets them) nothing is
 * started; otherwise throw-away servers are started in a temporary folder and
 * the variables are set for the test workers, which inherit them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServices } from '../lib/services.mjs';
import { SetupError } from '../lib/setup-error.mjs';
import { setJestServices } from './jest-services-state.mjs';

export default async function globalSetup() {
  if (process.env.MONGODB_URI && process.env.REDIS_URL) return;
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-jest-'));
  try {
    const services = await startServices({ dataDir, smtp: 'none' });
    process.env.MONGODB_URI = services.mongodbUri;
    process.env.REDIS_URL = services.redisUrl;
    setJestServices({ stop: services.stop, dataDir });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    // Jest prints the stack of whatever is thrown; a setup problem needs one line.
    if (error instanceof SetupError) throw new Error(error.message, { cause: error });
    throw error;
  }
}
