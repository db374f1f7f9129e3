import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { e2eFailureLines, readE2eFailures } from '../lib/e2e-failures.mjs';

const ROOT = join(__dirname, '..', '..');
const PLAYWRIGHT_TEST = require.resolve('@playwright/test', { paths: [ROOT] });

/** Playwright refuses to run inside a jest worker, which it knows by this variable. */
function withoutJest(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const rest = { ...env };
  delete rest.JEST_WORKER_ID;
  return rest;
}

/**
 * A real Playwright run (no browser: the tests only compute) with one
 * passing test, one failing, and one flaky that passes on its retry, whose
 * JSON report is read as `npm test` reads the e2e step's.
 */
async function runSmallSuite(dir: string): Promise<string> {
  const report = join(dir, 'report.json');
  writeFileSync(
    join(dir, 'playwright.config.cjs'),
    `module.exports = { testDir: '.', retries: 1, workers: 1, reporter: [['json', { outputFile: ${JSON.stringify(report)} }]] };\n`,
  );
  writeFileSync(
    join(dir, 'sample.spec.cjs'),
    [
      // By its path: the folder is outside the repository and its node_modules.
      `const { expect, test } = require(${JSON.stringify(PLAYWRIGHT_TEST)});`,
      "test.describe('a campaign', () => {",
      "  test('is sent', () => { expect('Scheduled').toBe('Sent'); });",
      "  test('is named', () => { expect('x').toBe('x'); });",
      "  test('is counted', ({}, info) => { expect(info.retry).toBe(1); });",
      '});',
      '',
    ].join('\n'),
  );
  await promisify(execFile)(
    join(ROOT, 'node_modules', '.bin', 'playwright'),
    ['test', '-c', join(dir, 'playwright.config.cjs')],
    { cwd: ROOT, timeout: 60_000, env: withoutJest(process.env) },
  ).catch(() => undefined); // a run with a failure exits 1: the report is what matters
  return report;
}

describe('the end of npm test, after a failed Playwright step', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'e2e-failures-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names each failed test, where it is and the start of its error, and not the flaky one', async () => {
    const failures = readE2eFailures(await runSmallSuite(dir));
    expect(failures).toHaveLength(1);
    const [failure] = failures ?? [];
    expect(failure?.title).toBe('a campaign › is sent');
    expect(failure?.where).toBe('sample.spec.cjs:3');
    expect(failure?.message).toMatch(/Expected: "Sent"\s+Received: "Scheduled"/);
    expect(failure?.message).toContain(`at ${join(dir, 'sample.spec.cjs')}:3`);
    expect(failure?.message).not.toContain('\u001b[');
    const lines = e2eFailureLines(failures ?? []);
    expect(lines[0]).toBe('  ✘ sample.spec.cjs:3 › a campaign › is sent');
    expect(lines.slice(1).every((line) => line.startsWith('      '))).toBe(true);
  }, 90_000);

  it('says nothing to read when the step wrote no report', () => {
    expect(readE2eFailures(join(dir, 'missing.json'))).toBeNull();
  });
});
