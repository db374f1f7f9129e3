import { defineConfig } from '@playwright/test';
import { chromiumPath, E2E_STACK_LINE } from './support/e2e-env';

/**
 * `npx playwright test -c e2e/playwright.config.ts` starts everything it
 * needs: the webServer below runs the built app with its own MailDev (and
 * throw-away MongoDB/Redis unless MONGODB_URI/REDIS_URL are set), waits for
 * its E2E_STACK line and stops it with SIGTERM at the end. Setting
 * E2E_BASE_URL tests an app that is already running instead.
 */
export default defineConfig({
  testDir: './tests',
  outputDir: '../test-results/e2e',
  // Two at most: the behaviour suite one at a time (its project says why), the
  // accessibility scan on the other (and on both once the suite is done).
  workers: 2,
  retries: 0,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  // The list as it goes; the JSON report lets `npm test` repeat, at its very
  // end, which tests failed and why (scripts/lib/e2e-failures.mjs).
  reporter: [['list'], ['json', { outputFile: '../test-results/e2e-report.json' }]],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        name: 'e2e stack',
        command: 'node scripts/e2e-stack.mjs',
        cwd: '..',
        wait: { stdout: E2E_STACK_LINE },
        stdout: 'pipe',
        // A first run may install Redis or Chromium, or build FerretDB.
        timeout: 600_000,
        gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      },
  // `e2e` is the behaviour suite: one test at a time, as its specs share the
  // stack's accounts, data and mail catcher (others count what they made).
  // `a11y` is the axe-core scan of every screen: it runs beside the suite on
  // the same stack, in parallel. `outage` stops MailDev to show what staff
  // see while the mail server is down: it runs once both are done, as the
  // scan sends a campaign and reads it back from MailDev, and the outage's
  // banner and notices would be scanned on screens that are not about it.
  // `npm run test:e2e` (the `e2e` step of `npm test`) runs all three;
  // `--project` picks one (`outage` brings the other two first).
  projects: [
    {
      name: 'e2e',
      testIgnore: [/accessibility\.spec\.ts$/, /mail-server-outage\.spec\.ts$/],
      workers: 1,
    },
    {
      name: 'a11y',
      testMatch: /accessibility\.spec\.ts$/,
      // The scans only read, so a second attempt finds what the first would
      // have found. It is there for a browser that stops answering: one scan
      // in CI hung until its test's timeout with nothing to show for it.
      // A retry that passes is reported as flaky, and a finding fails both.
      retries: 1,
    },
    {
      name: 'outage',
      testMatch: /mail-server-outage\.spec\.ts$/,
      dependencies: ['e2e', 'a11y'],
      workers: 1,
    },
  ],
  use: {
    browserName: 'chromium',
    headless: true,
    locale: 'en-US',
    trace: 'retain-on-failure',
    // A page that never finishes loading fails its step, named, rather than
    // the whole test at its timeout.
    navigationTimeout: 45_000,
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
});
