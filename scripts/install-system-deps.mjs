// @ts-check
/**
 * Installs (as root, with apt-get) or checks the system programs the tests
 * need: redis-server, chromium, docker-compose, and a MongoDB-wire server
 * (mongod, else FerretDB built with Go). Needs no node_modules, so CI runs it
 * before `npm ci`.
 *   node scripts/install-system-deps.mjs
 */
import { reportFatalError } from './lib/setup-error.mjs';
import { ensureSystemDependencies } from './lib/system-deps.mjs';

try {
  const found = ensureSystemDependencies();
  console.log(`redis-server    ${found.redisServer}`);
  console.log(`${(found.mongoServer?.kind ?? 'mongo').padEnd(16)}${found.mongoServer?.path}`);
  console.log(`chromium        ${found.chromium}`);
  console.log(`docker-compose  ${found.dockerCompose}`);
} catch (error) {
  reportFatalError(error);
  process.exit(1);
}
