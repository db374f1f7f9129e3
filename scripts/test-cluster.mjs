// @ts-check
/**
 * `npm run test:cluster`: the product on a cluster of hosts made on this
 * machine as Linux network namespaces (needs root and iproute2): a Redis
 * primary and replica, three Sentinels, the MongoDB-wire server, two API
 * hosts behind HAProxy, three worker hosts, an SMTP sink and a client host,
 * on one bridge that lives in a namespace of its own. Runs the scenarios
 * (scripts/cluster/scenarios.mjs), prints what each saw, and removes every
 * namespace, process and file it made, also when interrupted or out of
 * time. Stale namespaces of a run that was killed are removed at start.
 *
 *   npm run test:cluster [-- --scenarios 1,3] [--recipients 20000]
 *     [--time-limit-minutes 20] [--verbose]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNpmPackages, runQuietly } from './lib/bootstrap.mjs';
import { runCommand, SetupError } from './lib/console.mjs';
import { ensureSystemPrograms } from './lib/system-deps.mjs';
import { parseClusterArgs } from './cluster/cluster-args.mjs';
import { clusterNetwork, removeStaleRuns, TEMP_PREFIX } from './cluster/network.mjs';

const rootDir = fileURLToPath(new URL('..', import.meta.url));
const runStartedAt = performance.now();

/**
 * Checks the machine can host the cluster and installs what it lacks; builds
 * the API and the worker if they are not built.
 */
async function prepareMachine() {
  if (process.getuid?.() !== 0) {
    throw new SetupError(
      'npm run test:cluster makes network namespaces (ip netns): run it as root',
    );
  }
  const [, programs] = await Promise.all([
    installNpmPackages(rootDir),
    ensureSystemPrograms({ redis: true, mongo: true, iproute2: true, haproxy: true }),
  ]);
  const { redisServer, mongoServer, haproxy } = programs;
  if (!redisServer || !mongoServer || !haproxy || !programs.ip) {
    throw new SetupError('redis-server, a MongoDB-wire server, HAProxy and ip are all needed');
  }
  if (
    !existsSync(join(rootDir, 'backend/dist/server.js')) ||
    !existsSync(join(rootDir, 'worker/dist/index.js'))
  ) {
    console.log('Building the API and the worker (npm run build)...');
    await runQuietly('npm', ['run', 'build'], { cwd: rootDir });
  }
  return { redisServer, mongoServer, haproxy };
}

async function removeWhatInterruptedRunsLeft() {
  const stale = await removeStaleRuns();
  if (stale.namespaces + stale.folders > 0) {
    console.log(
      `Removed what an interrupted run left: ${stale.namespaces} namespaces, ${stale.folders} folders.`,
    );
  }
}

/**
 * Resolves with the reason the run must stop: a signal, or its time limit.
 * @param {number} timeLimitMs
 * @returns {{ aborted: Promise<string>, clear: () => void }}
 */
function stopReasons(timeLimitMs) {
  /** @type {(reason: string) => void} */
  let abort = () => undefined;
  /** @type {Promise<string>} */
  const aborted = new Promise((resolve) => {
    abort = resolve;
  });
  for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) {
    process.on(signal, () => abort(`${signal}: stopping the cluster and removing it...`));
  }
  const timer = setTimeout(
    () => abort(`Time limit of ${timeLimitMs / 60_000} min reached: removing the cluster...`),
    timeLimitMs,
  );
  return { aborted, clear: () => clearTimeout(timer) };
}

/**
 * Starts the scenarios' driver on the client host.
 * @param {ReturnType<typeof clusterNetwork>} network
 * @param {object} run what the driver reads from CLUSTER_RUN
 */
function startDriver(network, run) {
  return spawn(
    'ip',
    [
      'netns',
      'exec',
      network.namespaceOf('client'),
      process.execPath,
      join(rootDir, 'scripts/cluster/driver.mjs'),
    ],
    {
      cwd: rootDir,
      env: { ...process.env, CLUSTER_RUN: JSON.stringify(run) },
      // Its stdin ends when this process dies, whatever kills it: it then stops too.
      stdio: ['pipe', 'inherit', 'inherit'],
    },
  );
}

async function main() {
  const options = parseClusterArgs(process.argv.slice(2));
  const programs = await prepareMachine();
  await removeWhatInterruptedRunsLeft();

  const dir = mkdtempSync(join(tmpdir(), `${TEMP_PREFIX}${process.pid}-`));
  const network = clusterNetwork(process.pid);
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let driver;
  let cleaned = false;
  const cleanUp = async () => {
    if (cleaned) return;
    cleaned = true;
    driver?.kill('SIGTERM');
    await network.destroy();
    rmSync(dir, { recursive: true, force: true });
  };
  const stop = stopReasons(options.timeLimitMs);

  try {
    const started = performance.now();
    await network.create();
    console.log(
      `Cluster network made (${((performance.now() - started) / 1000).toFixed(1)} s): 14 hosts on one bridge.`,
    );
    const running = startDriver(network, {
      ownerPid: process.pid,
      rootDir,
      dir,
      scenarios: options.scenarios,
      recipients: options.recipients,
      // Each scenario gets the run's limit at most; the run as a whole is bounded above.
      scenarioLimitMs: Math.min(options.timeLimitMs, 8 * 60_000),
      verbose: options.verbose,
      programs,
    });
    driver = running;
    const exited = new Promise((resolve) => running.once('exit', (code) => resolve(code ?? 1)));
    const first = await Promise.race([exited, stop.aborted]);
    if (typeof first === 'string') {
      console.error(`\n${first}`);
      await cleanUp();
      return 1;
    }
    return /** @type {number} */ (first);
  } finally {
    stop.clear();
    await cleanUp();
    const total = ((performance.now() - runStartedAt) / 1000).toFixed(0);
    console.log(`Cluster removed. test:cluster took ${total} s.`);
  }
}

await runCommand(main);
