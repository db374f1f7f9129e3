// @ts-check
/**
 * `npm test`: installs what is missing, starts throw-away MongoDB-wire and
 * Redis servers, then runs lint, typecheck, build, jest (all projects), the
 * Playwright e2e suite and the cluster test (`npm run test:cluster`, which
 * makes its own servers on network namespaces), every step even if one
 * fails, and prints a summary. The e2e step runs the axe-core scan of every
 * screen beside the behaviour suite (`--only a11y` runs the scan alone).
 *
 *   npm test                                   all steps
 *   npm test -- --only jest|e2e|cluster|a11y|lint|typecheck|build
 *   npm test -- backend/src/modules/contact    jest only, with these arguments
 *   npm test -- --only jest -t "rate limit"    same: extra arguments go to jest
 * `--only e2e`, `--only cluster` and `--only a11y` build first (they run the
 * built app).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNpmPackages } from './lib/bootstrap.mjs';
import { E2E_REPORT_PATH, e2eFailureLines, readE2eFailures } from './lib/e2e-failures.mjs';
import { paint, runCommand } from './lib/console.mjs';
import { ensureSystemPrograms } from './lib/system-deps.mjs';
import {
  budgetSkipReason,
  DEFAULT_STEPS,
  parseTestArgs,
  stepCommand,
  stepGroups,
} from './lib/test-steps.mjs';

const rootDir = fileURLToPath(new URL('..', import.meta.url));

/** @typedef {import('./lib/test-steps.mjs').StepName} StepName */
/**
 * @typedef {{ name: StepName, result: 'passed' | 'failed' | 'skipped', seconds: number, recap?: string[] }} StepOutcome
 * `recap`: what failed, repeated at the end of the run.
 */

/** @param {StepOutcome[]} outcomes */
function printSummary(outcomes) {
  for (const { name, recap } of outcomes) {
    if (!recap?.length) continue;
    console.log(paint('bold', `\n=== what failed in ${name}`));
    console.log(recap.join('\n'));
  }
  /** @type {Record<StepOutcome['result'], import('./lib/console.mjs').Style>} */
  const styleOf = { passed: 'green', failed: 'red', skipped: 'yellow' };
  console.log(`\n${'step'.padEnd(12)}${'result'.padEnd(10)}${'seconds'.padStart(8)}`);
  for (const { name, result, seconds } of outcomes) {
    const cell = paint(styleOf[result], result.padEnd(10));
    console.log(`${name.padEnd(12)}${cell}${seconds.toFixed(1).padStart(8)}`);
  }
  const count = (/** @type {StepOutcome['result']} */ result) =>
    outcomes.filter((outcome) => outcome.result === result).length;
  console.log(`steps: ${count('passed')} passed, ${count('failed')} failed`);
}

/**
 * Installs what the chosen steps need: npm packages, and the system programs
 * (Redis, FerretDB, Chromium, Dovecot...) not already there.
 * @param {StepName[]} steps
 * @param {boolean} needsServices
 */
async function prepareMachine(steps, needsServices) {
  const browserSteps = steps.includes('e2e') || steps.includes('a11y');
  const [, found] = await Promise.all([
    installNpmPackages(rootDir),
    ensureSystemPrograms({
      redis: needsServices && !process.env.REDIS_URL,
      mongo: needsServices && !process.env.MONGODB_URI,
      s3: steps.includes('jest') && !process.env.MEDIA_TEST_S3_ENDPOINT,
      chromium: browserSteps,
      dockerCompose: steps.includes('jest'),
      dovecot: steps.includes('jest'),
      iproute2: steps.includes('cluster'),
      haproxy: steps.includes('cluster'),
    }),
  ]);
  return found;
}

/**
 * The first Ctrl-C (or SIGTERM, SIGHUP) stops the current step and lets the
 * run clean up; a second one leaves at once.
 * @param {AbortController} stepController
 * @returns {() => boolean} whether the run was interrupted
 */
function stopOnSignals(stepController) {
  let interrupted = false;
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(signal, () => {
      if (interrupted) process.exit(130);
      interrupted = true;
      console.error(`\n${signal}: stopping the current step, then cleaning up...`);
      stepController.abort();
    });
  }
  return () => interrupted;
}

/**
 * @typedef {object} StepRunnerOptions
 * @property {NodeJS.ProcessEnv} env
 * @property {string[]} jestArgs
 * @property {AbortSignal} cancelSignal
 */

/**
 * Runs one step; `live` prints as it goes, else its output is kept and
 * printed once it ends (a step run beside another).
 * @param {StepRunnerOptions} options
 */
function stepRunner({ env, jestArgs, cancelSignal }) {
  /**
   * @param {StepName} name
   * @param {boolean} live
   * @returns {Promise<StepOutcome>}
   */
  return async (name, live) => {
    const { execa } = await import('execa');
    const [command, args] = stepCommand(name, jestArgs);
    const header = paint('bold', `\n=== ${name}: ${command} ${args.join(' ')}`);
    if (live) console.log(header);
    const playwright = name === 'e2e' || name === 'a11y';
    const reportPath = join(rootDir, E2E_REPORT_PATH);
    if (playwright) rmSync(reportPath, { force: true });
    const startedAt = performance.now();
    // The step shares our process group: a terminal's Ctrl-C reaches it as it reaches us.
    const { exitCode, all } = await execa(command, args, {
      cwd: rootDir,
      env,
      ...(live ? { stdio: 'inherit' } : { all: true, stdin: 'ignore' }),
      reject: false,
      cancelSignal,
      forceKillAfterDelay: 10_000,
    });
    const seconds = (performance.now() - startedAt) / 1000;
    if (!live) console.log(`${header} (ran beside the step above)\n${all ?? ''}`);
    if (exitCode === 0) return { name, result: 'passed', seconds };
    const failures = playwright ? readE2eFailures(reportPath) : null;
    return { name, result: 'failed', seconds, recap: failures ? e2eFailureLines(failures) : [] };
  };
}

/**
 * @typedef {object} StepPlan
 * @property {StepName[]} steps
 * @property {() => boolean} interrupted
 * @property {(name: StepName, live: boolean) => Promise<StepOutcome>} runStep
 * @property {(name: StepName) => string | null} leftOutForTime why a long step
 *   would not fit in the run's budget now, or null
 */

/**
 * Runs the steps in order, each group at once, skipping every step after
 * an interrupt, and a long one that would end the run past its budget.
 * @param {StepPlan} plan
 * @returns {Promise<StepOutcome[]>}
 */
async function runSteps({ steps, interrupted, runStep, leftOutForTime }) {
  /** @type {StepOutcome[]} */
  const outcomes = [];
  const skip = (/** @type {StepName[]} */ names) =>
    outcomes.push(
      ...names.map((name) => ({ name, result: /** @type {const} */ ('skipped'), seconds: 0 })),
    );
  for (const [first, ...beside] of stepGroups(steps)) {
    if (interrupted()) {
      skip([first, ...beside]);
      continue;
    }
    const reason = leftOutForTime(first);
    if (reason !== null) {
      console.log(paint('yellow', `\n=== ${reason}`));
      skip([first, ...beside]);
      continue;
    }
    const besideRuns = beside.map((name) => runStep(name, false));
    outcomes.push(await runStep(first, true));
    for (const run of besideRuns) outcomes.push(await run);
  }
  return outcomes.sort((a, b) => steps.indexOf(a.name) - steps.indexOf(b.name));
}

async function main() {
  /** @type {ReturnType<typeof parseTestArgs>} */
  let parsed;
  try {
    parsed = parseTestArgs(process.argv.slice(2));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  const { steps, jestArgs } = parsed;
  const needsServices = ['jest', 'timing', 'e2e', 'a11y'].some((step) =>
    steps.includes(/** @type {StepName} */ (step)),
  );
  const found = await prepareMachine(steps, needsServices);
  const { s3TestEnv, startServices } = await import('./lib/services.mjs');
  const { testServerEnv } = await import('./lib/mongo-server-env.mjs');

  const stepController = new AbortController();
  const interrupted = stopOnSignals(stepController);
  const dataDir = mkdtempSync(join(tmpdir(), 'agency-test-'));
  /** @type {import('./lib/services.mjs').RunningServices | undefined} */
  let services;
  /** @type {StepOutcome[] | undefined} */
  let outcomes;
  try {
    /** @type {NodeJS.ProcessEnv} */
    const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
    if (found.chromium) env.CHROMIUM_PATH = found.chromium;
    if (found.dovecot) env.DOVECOT_BIN = found.dovecot;
    if (needsServices) {
      services = await startServices({
        dataDir,
        mailCatcher: false,
        s3: steps.includes('jest'),
        env: testServerEnv(),
      });
      Object.assign(env, { MONGODB_URI: services.mongodbUri, REDIS_URL: services.redisUrl });
      if (services.s3) Object.assign(env, s3TestEnv(services.s3));
      console.log(`MongoDB ${services.mongodbUri}  Redis ${services.redisUrl}`);
    }
    const runStep = stepRunner({ env, jestArgs, cancelSignal: stepController.signal });
    // A whole run (CI's) keeps to its budget, counted from the start of the
    // run, installs included; a step asked for by name always runs.
    const wholeRun = steps.join() === DEFAULT_STEPS.join();
    const leftOutForTime = (/** @type {StepName} */ name) =>
      budgetSkipReason(name, { elapsedSeconds: process.uptime(), wholeRun });
    outcomes = await runSteps({ steps, interrupted, runStep, leftOutForTime });
  } finally {
    await services?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  printSummary(outcomes ?? []);
  if (interrupted()) return 130;
  return (outcomes ?? []).some((outcome) => outcome.result === 'failed') ? 1 : 0;
}

await runCommand(main);
