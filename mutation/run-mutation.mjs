// @ts-check
/**
 * `npm run test:mutation`: installs what is missing, starts throw-away
 * MongoDB-wire and Redis servers once (the mutants' jest runs reuse them),
 * runs StrykerJS with mutation/stryker.config.mjs, then prints the score.
 * Stryker itself fails the run under 80% (`thresholds.break`).
 * Extra arguments go to `stryker run` (e.g. `--mutate worker/src/jobs/enquiry-mail.job.ts`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNpmPackages } from '../scripts/lib/bootstrap.mjs';
import { runCommand } from '../scripts/lib/console.mjs';
import { ensureSystemPrograms } from '../scripts/lib/system-deps.mjs';

const rootDir = fileURLToPath(new URL('..', import.meta.url));
const REPORT = join(rootDir, 'reports', 'mutation', 'mutation.json');
const STRYKER_BIN = join(rootDir, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');

/** @param {number} pid @param {NodeJS.Signals} signal */
function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * Stryker's test runners are its child processes, and they outlived it when
 * only Stryker was killed. It runs as the leader of a process group: Ctrl-C
 * or a SIGTERM here is passed to the whole group, and whatever the group
 * still holds ten seconds later is killed.
 * @param {number | undefined} pid
 */
function stopGroupOn(pid) {
  if (pid === undefined) return { finish: () => undefined };
  /** @type {NodeJS.Timeout | undefined} */
  let forceKill;
  const forward = (/** @type {NodeJS.Signals} */ signal) => {
    signalGroup(pid, signal);
    forceKill ??= setTimeout(() => signalGroup(pid, 'SIGKILL'), 10_000);
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return {
    finish() {
      clearTimeout(forceKill);
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      signalGroup(pid, 'SIGKILL');
    },
  };
}

/**
 * The mutation score (killed and timed-out mutants over all valid ones) from
 * Stryker's JSON report, as its clear-text table counts it.
 * @param {string} file
 */
function scoreOf(file) {
  /** @type {{ files: Record<string, { mutants: { status: string }[] }> }} */
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const counts = /** @type {Record<string, number>} */ ({});
  for (const { mutants } of Object.values(report.files)) {
    for (const { status } of mutants) counts[status] = (counts[status] ?? 0) + 1;
  }
  const detected = (counts.Killed ?? 0) + (counts.Timeout ?? 0);
  const valid = detected + (counts.Survived ?? 0) + (counts.NoCoverage ?? 0);
  return { score: valid === 0 ? 0 : (100 * detected) / valid, detected, valid, counts };
}

async function main() {
  const needsServices = { mongo: !process.env.MONGODB_URI, redis: !process.env.REDIS_URL };
  // The bounce mailbox job's tests start a Dovecot of their own.
  const [, found] = await Promise.all([
    installNpmPackages(rootDir),
    ensureSystemPrograms({ ...needsServices, dovecot: true }),
  ]);
  if (found.dovecot) process.env.DOVECOT_BIN = found.dovecot;
  const { execa } = await import('execa');
  const { startServices } = await import('../scripts/lib/services.mjs');

  const dataDir = mkdtempSync(join(tmpdir(), 'agency-mutation-'));
  /** @type {import('../scripts/lib/services.mjs').RunningServices | undefined} */
  let services;
  try {
    services = await startServices({ dataDir, mailCatcher: false });
    console.log(`MongoDB ${services.mongodbUri}  Redis ${services.redisUrl}`);
    // A report left by an earlier run must not pass for this one's.
    rmSync(REPORT, { force: true });
    const startedAt = performance.now();
    const stryker = execa(
      process.execPath,
      [STRYKER_BIN, 'run', 'mutation/stryker.config.mjs', ...process.argv.slice(2)],
      {
        cwd: rootDir,
        env: { ...process.env, MONGODB_URI: services.mongodbUri, REDIS_URL: services.redisUrl },
        stdio: 'inherit',
        reject: false,
        // Its own process group, so that its test runners go with it.
        detached: true,
      },
    );
    const stopStryker = stopGroupOn(stryker.pid);
    const { exitCode } = await stryker;
    // Whatever Stryker left running (a test runner it lost track of) goes now.
    stopStryker.finish();
    const minutes = (performance.now() - startedAt) / 60_000;
    try {
      const { score, detected, valid, counts } = scoreOf(REPORT);
      console.log(
        `\nmutation score: ${score.toFixed(2)}% (${detected} of ${valid} mutants detected; ` +
          `${JSON.stringify(counts)}) in ${minutes.toFixed(1)} min`,
      );
    } catch {
      console.log(`\nno mutation report at ${REPORT}: Stryker stopped before scoring`);
    }
    return exitCode ?? 1;
  } finally {
    await services?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await runCommand(main);
