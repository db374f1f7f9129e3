// @ts-check
/**
 * `npm test`: starts throw-away MongoDB-wire and Redis servers, then runs
 * lint, typecheck, build, jest (all projects) and the Playwright e2e suite,
 * every step even if one fails, and prints a summary.
 *
 *   npm test                                   all steps
 *   npm test -- --only jest|e2e|lint|typecheck|build
 *   npm test -- backend/src/modules/contact    jest only, with these arguments
 *   npm test -- --only jest -t "rate limit"    same: extra arguments go to jest
 * `--only e2e` builds first (e2e runs the built app).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap, REPO_ROOT } from './bootstrap.mjs';

bootstrap();

const { paint } = await import('./lib/console-style.mjs');
const { runCommand } = await import('./lib/managed-process.mjs');
const { startServices } = await import('./lib/services.mjs');
const { reportFatalError } = await import('./lib/setup-error.mjs');
const { ensureSystemDependencies } = await import('./lib/system-deps.mjs');
const { parseTestArgs, stepCommand } = await import('./lib/test-steps.mjs');

/** @typedef {import('./lib/test-steps.mjs').StepName} StepName */
/** @typedef {{ name: StepName, result: 'passed' | 'failed' | 'skipped', seconds: number }} StepOutcome */

/** @param {StepOutcome[]} outcomes */
function printSummary(outcomes) {
  /** @type {Record<StepOutcome['result'], import('./lib/console-style.mjs').ColorName>} */
  const colorOf = { passed: 'green', failed: 'red', skipped: 'yellow' };
  console.log(`\n${'step'.padEnd(12)}${'result'.padEnd(10)}${'seconds'.padStart(8)}`);
  for (const { name, result, seconds } of outcomes) {
    const cell = paint(colorOf[result], result.padEnd(10));
    console.log(`${name.padEnd(12)}${cell}${seconds.toFixed(1).padStart(8)}`);
  }
  const passed = outcomes.filter((outcome) => outcome.result === 'passed').length;
  const failed = outcomes.filter((outcome) => outcome.result === 'failed').length;
  console.log(`steps: ${passed} passed, ${failed} failed`);
}

async function main() {
  let parsed;
  try {
    parsed = parseTestArgs(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  const { steps, jestArgs } = parsed;
  const needsServices = steps.includes('jest') || steps.includes('e2e');

  const found = ensureSystemDependencies({
    redis: needsServices && !process.env.REDIS_URL,
    mongo: needsServices && !process.env.MONGODB_URI,
    chromium: steps.includes('e2e'),
    dockerCompose: steps.includes('jest'),
  });

  const stepController = new AbortController();
  let interrupted = false;
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(signal, () => {
      if (interrupted) process.exit(130);
      interrupted = true;
      console.error(`\n${signal}: stopping the current step, then cleaning up...`);
      // Steps run in their own process group: a terminal Ctrl-C reaches only us.
      stepController.abort();
    });
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'agency-test-'));
  /** @type {import('./lib/services.mjs').RunningServices | undefined} */
  let services;
  /** @type {StepOutcome[]} */
  const outcomes = [];
  try {
    /** @type {NodeJS.ProcessEnv} */
    const stepEnv = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
    if (found.chromium) stepEnv.CHROMIUM_PATH = found.chromium;
    if (needsServices) {
      services = await startServices({ dataDir, smtp: 'none' });
      stepEnv.MONGODB_URI = services.mongodbUri;
      stepEnv.REDIS_URL = services.redisUrl;
      console.log(`MongoDB ${services.mongodbUri}  Redis ${services.redisUrl}`);
    }

    for (const name of steps) {
      if (interrupted) {
        outcomes.push({ name, result: 'skipped', seconds: 0 });
        continue;
      }
      const [command, args] = stepCommand(name, jestArgs);
      console.log(paint('bold', `\n=== ${name}: ${command} ${args.join(' ')}`));
      const startedAt = performance.now();
      const exitCode = await runCommand(command, args, {
        cwd: REPO_ROOT,
        env: stepEnv,
        signal: stepController.signal,
      });
      const seconds = (performance.now() - startedAt) / 1000;
      outcomes.push({ name, result: exitCode === 0 ? 'passed' : 'failed', seconds });
    }
  } finally {
    await services?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  printSummary(outcomes);
  if (interrupted) return 130;
  return outcomes.some((outcome) => outcome.result === 'failed') ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  reportFatalError(error);
  process.exitCode = 1;
}
// Services are stopped; don't wait for stray handles.
process.exit(process.exitCode);
