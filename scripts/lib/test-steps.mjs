// @ts-check
/**
 * The steps of `npm test` and how its command line selects them.
 */

/** @typedef {'lint' | 'typecheck' | 'build' | 'jest' | 'timing' | 'e2e' | 'cluster' | 'a11y'} StepName */

/**
 * Every step `--only` takes. `cluster` is `npm run test:cluster`, every
 * scenario. `e2e` is the Playwright run (`npm run test:e2e`): the behaviour
 * suite and, beside it on the same stack, the axe-core scan of every screen;
 * `a11y` is that scan alone (`npm run test:a11y`).
 * @type {StepName[]}
 */
export const ALL_STEPS = ['lint', 'typecheck', 'build', 'jest', 'timing', 'e2e', 'cluster', 'a11y'];

/**
 * What a whole `npm test` (`.ci/run`) runs: every step but `a11y`, which the
 * `e2e` step already runs.
 * @type {StepName[]}
 */
export const DEFAULT_STEPS = ALL_STEPS.filter((step) => step !== 'a11y');

/** Every jest project but `timing`, whose answer-time comparisons run alone (jest.config.mjs). */
const JEST_PROJECTS = ['contracts', 'platform', 'backend', 'worker', 'scripts', 'frontend'];

/**
 * @param {StepName} name
 * @param {string[]} jestArgs
 * @returns {[string, string[]]}
 */
export function stepCommand(name, jestArgs) {
  switch (name) {
    case 'lint':
      return ['npm', ['run', 'lint']];
    case 'typecheck':
      return ['npm', ['run', 'typecheck']];
    case 'build':
      return ['npm', ['run', 'build']];
    case 'jest':
      return [
        'npx',
        ['jest', ...(jestArgs.length > 0 ? jestArgs : ['--selectProjects', ...JEST_PROJECTS])],
      ];
    case 'timing':
      return ['npx', ['jest', '--selectProjects', 'timing', '--runInBand']];
    case 'e2e':
      return ['npm', ['run', 'test:e2e']];
    case 'a11y':
      return ['npm', ['run', 'test:a11y']];
    case 'cluster':
      return ['npm', ['run', 'test:cluster']];
  }
}

/**
 * Steps that run at the same time as another when both are asked for: lint
 * and typecheck each keep one core busy for a minute or two, and neither
 * needs the other's output, so together they take the longer one's time.
 * @type {Partial<Record<StepName, StepName>>}
 */
const ALONGSIDE = { lint: 'typecheck' };

/**
 * The steps in the order they run, each group at the same time. The first
 * step of a group prints as it goes; the others' output follows it.
 * @param {StepName[]} steps
 * @returns {[StepName, ...StepName[]][]}
 */
export function stepGroups(steps) {
  const joinsAnother = (/** @type {StepName} */ step) => {
    const partner = ALONGSIDE[step];
    return partner !== undefined && steps.includes(partner);
  };
  return steps
    .filter((step) => !joinsAnother(step))
    .map((step) => [step, ...steps.filter((other) => ALONGSIDE[other] === step)]);
}

/**
 * How long a whole `npm test` may take, in seconds: CI's budget. Past it the
 * run is slower to give an answer than the team can wait for.
 */
export const RUN_BUDGET_SECONDS = 30 * 60;

/**
 * Long suites a whole run starts only while they still fit in the budget,
 * with the time they take on a slow machine (seconds). `--only` runs them
 * whatever the time.
 * @type {Partial<Record<StepName, number>>}
 */
export const BUDGETED_STEPS = { cluster: 240 };

/**
 * Why a budgeted step of a whole run is left out at this point, or null
 * when it runs: it would end after the budget.
 * @param {StepName} step
 * @param {{ elapsedSeconds: number, wholeRun: boolean, budgetSeconds?: number }} run
 * @returns {string | null}
 */
export function budgetSkipReason(
  step,
  { elapsedSeconds, wholeRun, budgetSeconds = RUN_BUDGET_SECONDS },
) {
  const needs = BUDGETED_STEPS[step];
  if (!wholeRun || needs === undefined) return null;
  if (elapsedSeconds + needs <= budgetSeconds) return null;
  const minutes = (/** @type {number} */ seconds) => (seconds / 60).toFixed(1);
  return (
    `${step} left out: the run has taken ${minutes(elapsedSeconds)} min, and ${step} ` +
    `(about ${minutes(needs)} min) would end it past its ${minutes(budgetSeconds)}-minute budget. ` +
    `Run it on its own: npm test -- --only ${step}`
  );
}

/** @param {string} value @returns {value is StepName} */
function isStepName(value) {
  return /** @type {string[]} */ (ALL_STEPS).includes(value);
}

/**
 * @param {string[]} argv
 * @returns {{ steps: StepName[], jestArgs: string[] }}
 */
export function parseTestArgs(argv) {
  /** @type {string | undefined} */
  let only;
  /** @type {string[]} */
  const jestArgs = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] ?? '';
    if (arg === '--only') only = argv[++index];
    else if (arg.startsWith('--only=')) only = arg.slice('--only='.length);
    else if (arg !== '--') jestArgs.push(arg);
  }
  if (only === undefined && jestArgs.length > 0) only = 'jest';
  if (only === undefined) return { steps: [...DEFAULT_STEPS], jestArgs };
  if (!isStepName(only)) {
    throw new Error(`--only takes one of ${ALL_STEPS.join(', ')} (got ${only ?? 'nothing'})`);
  }
  if (jestArgs.length > 0 && only !== 'jest') {
    throw new Error(`Extra arguments (${jestArgs.join(' ')}) are passed to jest only`);
  }
  // These run the built app.
  const runsBuiltApp = only === 'e2e' || only === 'cluster' || only === 'a11y';
  return { steps: runsBuiltApp ? ['build', only] : [only], jestArgs };
}
