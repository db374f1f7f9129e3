// @ts-check
/**
 * The steps of `npm test` and how its command line selects them.
 */

/** @typedef {'lint' | 'typecheck' | 'build' | 'jest' | 'timing' | 'e2e' | 'cluster'} StepName */

/**
 * `cluster` is `npm run test:cluster`, every scenario: the whole `npm test`
 * (`.ci/run`) stays well under 30 minutes with it (scripts/README.md).
 * @type {StepName[]}
 */
export const ALL_STEPS = ['lint', 'typecheck', 'build', 'jest', 'timing', 'e2e', 'cluster'];

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
      return ['npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts']];
    case 'cluster':
      return ['npm', ['run', 'test:cluster']];
  }
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
  if (only === undefined) return { steps: [...ALL_STEPS], jestArgs };
  if (!isStepName(only)) {
    throw new Error(`--only takes one of ${ALL_STEPS.join(', ')} (got ${only ?? 'nothing'})`);
  }
  if (jestArgs.length > 0 && only !== 'jest') {
    throw new Error(`Extra arguments (${jestArgs.join(' ')}) are passed to jest only`);
  }
  // Both run the built app.
  return { steps: only === 'e2e' || only === 'cluster' ? ['build', only] : [only], jestArgs };
}
