// @ts-check
/**
 * StrykerJS over the mail path: worker jobs and mail, the backend's queues,
 * the contact and newsletter services. Run it with `npm run test:mutation`,
 * which starts the MongoDB-wire server and Redis the tests need.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  testRunner: 'jest',
  jest: {
    projectType: 'custom',
    configFile: 'mutation/jest.config.mjs',
    enableFindRelatedTests: true,
  },
  coverageAnalysis: 'perTest',
  // Mutants in module-level constants (the mail copy catalogues, option
  // objects) run every test, which costs two thirds of the time; the tests
  // that check those values run in npm test.
  ignoreStatic: true,
  mutate: [
    'worker/src/jobs/**/*.ts',
    'worker/src/mail/**/*.ts',
    'backend/src/queues/**/*.ts',
    'backend/src/modules/contact/contact.service.ts',
    'backend/src/modules/newsletter/newsletter.service.ts',
    'backend/src/modules/newsletter/newsletter-token.ts',
    // Campaign sends: the dispatch and send jobs (under jobs/ above), the
    // send ledger in Redis, the ledger and counters in MongoDB, the lock.
    'worker/src/campaigns/send-ledger.ts',
    'backend/src/modules/campaigns/campaign-delivery.service.ts',
    'backend/src/modules/campaigns/campaign-lock.ts',
    '!**/*.test.ts',
  ],
  // The sandbox needs the sources the tests load, not the site or the e2e suite.
  ignorePatterns: ['frontend', 'e2e', '.data', '**/dist', 'reports', 'test-results'],
  checkers: [],
  concurrency: 2,
  // Generous: on a shared, loaded machine a failing test can take seconds, and
  // a timed-out mutant costs a test runner restart.
  timeoutMS: 15_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: 80 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
