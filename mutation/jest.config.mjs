// @ts-check
/**
 * The jest run StrykerJS repeats for each mutant: the tests of the mail path
 * only, as one flat project (the jest runner's per-test coverage wants one),
 * with the same SWC transform and workspace mapping as the root config.
 */
import rootConfig from '../jest.config.mjs';

const backend = rootConfig.projects?.find(
  (project) => typeof project === 'object' && project.displayName === 'backend',
);
if (typeof backend !== 'object') throw new Error('jest.config.mjs has no backend project');

/** The root's project mapping points one level up from a workspace; here the root is the repo. */
const moduleNameMapper = Object.fromEntries(
  Object.entries(backend.moduleNameMapper ?? {}).map(([pattern, target]) => [
    pattern,
    String(target).replace('<rootDir>/../', '<rootDir>/'),
  ]),
);

/** @type {import('jest').Config} */
export default {
  rootDir: '..',
  // Starts MongoDB and Redis when run on its own; npm run test:mutation sets them once.
  globalSetup: rootConfig.globalSetup,
  globalTeardown: rootConfig.globalTeardown,
  testEnvironment: 'node',
  transform: backend.transform,
  moduleNameMapper,
  // The quick tests of each piece against real MongoDB, Redis and SMTP: each
  // mutant reruns the ones covering it. The whole pipelines (a worker, Redis
  // stopped and frozen) run in `npm test`; here they would only slow each
  // mutant down, since what they check is checked piece by piece below.
  testMatch: [
    '<rootDir>/backend/src/modules/contact/**/*.test.ts',
    '<rootDir>/backend/src/modules/newsletter/**/*.test.ts',
    '<rootDir>/backend/src/queues/**/*.test.ts',
    '<rootDir>/platform/src/**/*.test.ts',
    '<rootDir>/worker/src/jobs/**/*.test.ts',
    '<rootDir>/worker/src/mail/**/*.test.ts',
    '<rootDir>/worker/src/pipelines/redis-connections.test.ts',
    '<rootDir>/worker/src/campaigns/**/*.test.ts',
    // Campaign sends in one process (the crash tests run a built worker, which no mutant reaches).
    '<rootDir>/worker/src/pipelines/campaign-send.test.ts',
    '<rootDir>/worker/src/pipelines/campaign-controls.test.ts',
    '<rootDir>/backend/src/modules/campaigns/**/*.test.ts',
  ],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // A mutant's run loads only the test files holding the tests that cover it.
  testSequencer: '<rootDir>/mutation/covering-test-files.sequencer.mjs',
  testTimeout: 10_000,
};
