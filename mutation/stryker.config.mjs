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
  // The logic of the mail path. Not the mail templates (their copy is
  // checked in npm test by mail-rendering.test.ts; here every reworded
  // sentence would be a mutant of its own) nor the operators' queue registry.
  mutate: [
    'worker/src/jobs/**/*.ts',
    'worker/src/mail/*.ts',
    'backend/src/queues/**/*.ts',
    '!backend/src/queues/queue-registry.ts',
    'platform/src/queues/**/*.ts',
    'backend/src/modules/contact/contact.service.ts',
    'backend/src/modules/newsletter/newsletter.service.ts',
    'platform/src/newsletter/*.ts',
    '!platform/src/newsletter/subscriber.model.ts',
    // Owed mail: the outbox entries and receipts, the enquiries' view of
    // them, and the batched writes both go through.
    'platform/src/contact/contact-mail-state.ts',
    'platform/src/mail-outbox/mail-outbox.service.ts',
    'platform/src/batched-writes.ts',
    // Campaign sends: the engine's folder (dispatch, sends, recovery, the
    // round's state in Redis, each message's MIME and template, their SMTP
    // connections), and of the campaigns module the engine's store (the
    // ledger and counters), the move of the old ledger, and the lock.
    'worker/src/campaigns/**/*.ts',
    '!worker/src/campaigns/index.ts',
    '!worker/src/campaigns/campaign-messenger.ts',
    '!worker/src/campaigns/nodemailer-internals.ts',
    'platform/src/campaigns/mongo-campaign-store.ts',
    'platform/src/campaigns/ledger-collections.ts',
    'platform/src/campaigns/legacy-ledger-migration.ts',
    'platform/src/campaigns/campaign-lock.ts',
    '!**/*.test.ts',
  ],
  plugins: ['@stryker-mutator/*', './mutation/log-calls.ignorer.mjs'],
  ignorers: ['log-calls'],
  // The sandbox needs the sources the tests load, not the site or the e2e suite,
  // nor the sandbox of another run in this checkout (`--tempDirName` for a
  // per-file run beside a whole one): its copies of the workspaces would make
  // jest refuse the duplicate package names.
  ignorePatterns: [
    'frontend',
    'e2e',
    '.data',
    '**/dist',
    'reports',
    'test-results',
    '/.stryker-tmp*',
  ],
  checkers: [],
  // Most of a mutant's run waits on MongoDB, Redis and SMTP round trips, so
  // three runners keep two cores busier than two do.
  concurrency: 3,
  // A mutant's tests get their time in the unmutated run, times 1.5, plus
  // this: enough for a loaded machine (a failing test can take seconds),
  // while a mutant that hangs (a loop, a promise never settled) costs 5 s
  // and a test runner restart rather than 15.
  timeoutMS: 5_000,
  timeoutFactor: 1.5,
  // A whole run takes about an hour here. The next run in the same checkout
  // reuses every result whose mutant and covering tests did not change, and
  // re-runs survivors that a new test covers; `-- --force` runs them all. A
  // fresh clone has no such file and runs everything.
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 80, break: 80 },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
