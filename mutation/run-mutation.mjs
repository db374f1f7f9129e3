// @ts-check
/**
 * `npm run test:mutation`: starts throw-away MongoDB-wire and Redis servers
 * once (the mutants' jest runs reuse them), runs StrykerJS with
 * mutation/stryker.config.mjs, prints its score and fails under 80%.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap, REPO_ROOT } from '../scripts/bootstrap.mjs';

bootstrap();

const { runCommand } = await import('../scripts/lib/managed-process.mjs');
const { startServices } = await import('../scripts/lib/services.mjs');
const { reportFatalError } = await import('../scripts/lib/setup-error.mjs');
const { ensureSystemDependencies } = await import('../scripts/lib/system-deps.mjs');

async function main() {
  ensureSystemDependencies({
    redis: !process.env.REDIS_URL,
    mongo: !process.env.MONGODB_URI,
    chromium: false,
    dockerCompose: false,
  });
  const controller = new AbortController();
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
    process.on(signal, () => controller.abort());
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-mutation-'));
  /** @type {import('../scripts/lib/services.mjs').RunningServices | undefined} */
  let services;
  try {
    services = await startServices({ dataDir, smtp: 'none', echo: false });
    console.log(`MongoDB ${services.mongodbUri}  Redis ${services.redisUrl}`);
    return await runCommand(
      'npx',
      ['stryker', 'run', 'mutation/stryker.config.mjs', ...process.argv.slice(2)],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          MONGODB_URI: services.mongodbUri,
          REDIS_URL: services.redisUrl,
        },
        signal: controller.signal,
      },
    );
  } finally {
    await services?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

try {
  process.exitCode = await main();
} catch (error) {
  reportFatalError(error);
  process.exitCode = 1;
}
process.exit(process.exitCode);
