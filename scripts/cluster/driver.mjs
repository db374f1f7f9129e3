// @ts-check
/**
 * The cluster test's driver, run by `scripts/test-cluster.mjs` inside the
 * client host's namespace (so every byte it sends stays in the cluster):
 * starts the servers on their hosts, runs the chosen scenarios one after the
 * other, prints what each saw, and exits 0 only if every check held.
 * Its settings come as JSON in CLUSTER_RUN.
 */
import { startInfrastructure } from './cluster.mjs';
import { clusterNetwork } from './network.mjs';
import { productPackages } from './probes.mjs';
import { SCENARIOS } from './scenarios.mjs';

/**
 * @typedef {object} ClusterRun
 * @property {number} ownerPid the process that made the namespaces
 * @property {string} rootDir
 * @property {string} dir the run's temporary folder
 * @property {(keyof typeof SCENARIOS)[]} scenarios
 * @property {number} recipients
 * @property {number} scenarioLimitMs
 * @property {boolean} verbose
 * @property {import('./cluster.mjs').Programs} programs
 */

/** @type {ClusterRun} */
const run = JSON.parse(process.env.CLUSTER_RUN ?? '{}');
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT'])) {
  // The caller removes the whole cluster, processes included: just go.
  process.on(signal, () => process.exit(130));
}
// Our stdin is a pipe from the caller: it ends when the caller dies, even by
// SIGKILL. Exiting then stops every process we started (processes.mjs).
process.stdin.on('end', () => process.exit(130));
process.stdin.resume();

class ScenarioTimeout extends Error {}

/** @param {Promise<T>} promise @param {number} ms @param {string} what @template T */
function within(promise, ms, what) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  /** @type {Promise<never>} */
  const late = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new ScenarioTimeout(`${what} took longer than ${ms / 60_000} min`)),
      ms,
    );
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function main() {
  const network = clusterNetwork(run.ownerPid);
  const started = performance.now();
  console.log(
    'Starting Redis (primary, replica), 3 Sentinels, the store, HAProxy and the SMTP sink...',
  );
  const infra = await startInfrastructure({ ...run, network });
  console.log(`Servers up in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
  const packages = productPackages(run.rootDir);
  /** @type {{ scenario: string, result: string, seconds: string }[]} */
  const summary = [];
  try {
    for (const number of run.scenarios) {
      const { title, run: body } = SCENARIOS[number];
      console.log(`\n=== Scenario ${number}: ${title}`);
      const scenarioStarted = performance.now();
      let result = 'failed';
      let timedOut = false;
      try {
        const outcome = await within(
          body({ ...run, network, infra, packages }),
          run.scenarioLimitMs,
          `scenario ${number}`,
        );
        console.table(
          outcome.rows.map(({ what, figure, check }) => ({
            what,
            figure,
            check: check === undefined ? '' : check ? 'ok' : 'FAILED',
          })),
        );
        for (const note of outcome.notes) console.log(note);
        result = outcome.passed ? 'passed' : 'failed';
      } catch (error) {
        timedOut = error instanceof ScenarioTimeout;
        console.error(
          `Scenario ${number} could not finish: ${error instanceof Error ? error.message : error}`,
        );
      }
      const secondsTaken = ((performance.now() - scenarioStarted) / 1000).toFixed(0);
      console.log(`Scenario ${number}: ${result} in ${secondsTaken} s`);
      summary.push({ scenario: `${number}. ${title}`, result, seconds: secondsTaken });
      // Its processes may still run: the next scenario would share the hosts with them.
      if (timedOut) break;
    }
  } finally {
    await infra.stop();
  }
  console.log('');
  console.table(summary);
  const failed = run.scenarios.length - summary.filter((entry) => entry.result === 'passed').length;
  console.log(`scenarios: ${run.scenarios.length - failed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
