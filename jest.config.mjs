// @ts-check
/**
 * One jest run covers every workspace. Node projects share real services that
 * scripts/jest/global-setup.mjs starts (or takes from MONGODB_URI/REDIS_URL);
 * each test file then uses its own database name and queue prefix.
 */
const swcNode = [
  '@swc/jest',
  {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  },
];
const swcReact = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      target: 'es2022',
      transform: { react: { runtime: 'automatic' } },
    },
    module: { type: 'commonjs' },
  },
];
const workspaceSources = {
  '^@agency/contracts$': '<rootDir>/../contracts/src/index.ts',
  '^@agency/platform$': '<rootDir>/../platform/src/index.ts',
  // Test helpers the build leaves out, shared by the platform's, backend's and worker's tests.
  '^@agency/platform/testing/(.*)$': '<rootDir>/../platform/src/testing/$1',
  '^@agency/backend$': '<rootDir>/../backend/src/index.ts',
  // A dynamic import() names the built file (`./x.js`), as Node's ESM
  // resolution wants: in the tests it is the TypeScript source.
  '^(\\.{1,2}/.*)\\.js$': '$1',
};

/** @param {string} name @returns {import('jest').Config} */
const nodeProject = (name) => ({
  displayName: name,
  rootDir: `./${name}`,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/**/*.test.ts'],
  transform: { '^.+\\.(t|j|mj)s$': swcNode },
  moduleNameMapper: workspaceSources,
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
});

/**
 * Answer-time comparisons (`*.timing.test.ts`) measure differences of 1 ms:
 * they run alone, after every other file, in a step of their own
 * (`npm test -- --only timing`), never beside another file's load.
 */
const TIMING_TESTS = '\\.timing\\.test\\.ts$';

/** @type {import('jest').Config} */
export default {
  globalSetup: '<rootDir>/scripts/jest/global-setup.mjs',
  globalTeardown: '<rootDir>/scripts/jest/global-teardown.mjs',
  testTimeout: 30_000,
  // Jest's default is one worker per core but one, which on a two-core machine
  // runs every file in series. Test files share nothing (each node file has its
  // own database and queue prefix), so they can run side by side; three on two
  // cores, because the slowest files mostly wait (a campaign's minute boundary,
  // a 30 s rate window: 146 s of wall time for 12 s of CPU), and a third file
  // uses the cores meanwhile. On the CI machine that took the step from 851 s
  // to about 670 s.
  maxWorkers: 3,
  projects: [
    nodeProject('contracts'),
    nodeProject('platform'),
    {
      ...nodeProject('backend'),
      testPathIgnorePatterns: ['/node_modules/', '/dist/', TIMING_TESTS],
    },
    {
      ...nodeProject('backend'),
      displayName: 'timing',
      testMatch: ['<rootDir>/**/*.timing.test.ts'],
    },
    nodeProject('worker'),
    {
      ...nodeProject('scripts'),
      transform: { '^.+\\.(t|j|mj)s$': swcNode },
    },
    {
      displayName: 'frontend',
      rootDir: './frontend',
      testEnvironment: 'jest-fixed-jsdom',
      testEnvironmentOptions: { customExportConditions: [''] },
      testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
      setupFilesAfterEnv: ['<rootDir>/src/testing/setup-tests.ts'],
      transform: { '^.+\\.(t|j|mj)sx?$': swcReact },
      // msw 2 and a few of its dependencies ship ESM only.
      transformIgnorePatterns: [
        '/node_modules/(?!(msw|@mswjs|@bundled-es-modules|rettime|@open-draft|until-async|outvariant|strict-event-emitter|headers-polyfill)/)',
      ],
      moduleNameMapper: {
        ...workspaceSources,
        '\\.(css|svg|png|jpg|webp)$': '<rootDir>/src/testing/file-stub.ts',
      },
    },
  ],
};
