// @ts-check
/**
 * The failed tests of a Playwright run, read from its JSON report, so the
 * end of `npm test` can say what failed and why: the list reporter prints
 * the reasons in the middle of the run's output, far above its last lines,
 * which are all a CI log's reader may see.
 */
import { readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

/** Where playwright.config.ts has the JSON reporter write, from the repository root. */
export const E2E_REPORT_PATH = 'test-results/e2e-report.json';

/** Lines of a failure's message kept: the assertion, expected and received, and the call log's start. */
const MESSAGE_LINES = 14;

/**
 * @typedef {{ message?: string, location?: { file: string, line: number } }} ReportError
 * @typedef {{ status: string, errors?: ReportError[] }} ReportResult
 * @typedef {{ projectName: string, status: string, results: ReportResult[] }} ReportTest
 * @typedef {{ title: string, file: string, line: number, tests: ReportTest[] }} ReportSpec
 * @typedef {{ title: string, specs?: ReportSpec[], suites?: ReportSuite[] }} ReportSuite
 * @typedef {{ suites?: ReportSuite[], errors?: ReportError[] }} Report
 * @typedef {{ title: string, project: string, where: string, message: string }} E2eFailure
 */

/** @param {ReportError[] | undefined} errors */
function messageOf(errors) {
  const first = errors?.find((error) => error.message) ?? errors?.[0];
  const lines = stripVTControlCharacters(first?.message ?? 'no message').split('\n');
  const at = first?.location ? `\n    at ${first.location.file}:${first.location.line}` : '';
  return lines.slice(0, MESSAGE_LINES).join('\n') + at;
}

/**
 * Every test whose outcome was not the expected one (a flaky test, passed on
 * a retry, is not a failure), with its suite titles, project, place and the
 * first error of its last attempt; then the run's own errors (a broken
 * config, a web server that did not start).
 * @param {Report} report
 * @returns {E2eFailure[]}
 */
export function e2eFailuresOf(report) {
  /** @type {E2eFailure[]} */
  const failures = [];
  /** @param {ReportSuite} suite @param {string[]} titles */
  const walk = (suite, titles) => {
    const path = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'unexpected') continue;
        const last = test.results[test.results.length - 1];
        failures.push({
          title: [...path.slice(1), spec.title].join(' › '),
          project: test.projectName,
          where: `${spec.file}:${spec.line}`,
          message: messageOf(last?.errors),
        });
      }
    }
    for (const child of suite.suites ?? []) walk(child, path);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  for (const error of report.errors ?? []) {
    failures.push({ title: 'the run itself', project: '', where: '', message: messageOf([error]) });
  }
  return failures;
}

/**
 * The failures of the report at `path`, or null when there is none to read
 * (the step did not get as far as writing it).
 * @param {string} path
 * @returns {E2eFailure[] | null}
 */
export function readE2eFailures(path) {
  try {
    return e2eFailuresOf(/** @type {Report} */ (JSON.parse(readFileSync(path, 'utf8'))));
  } catch {
    return null;
  }
}

/**
 * The failures as the end of a run prints them.
 * @param {E2eFailure[]} failures
 */
export function e2eFailureLines(failures) {
  return failures.flatMap(({ title, project, where, message }) => [
    `  ✘ ${project ? `[${project}] ` : ''}${where ? `${where} › ` : ''}${title}`,
    ...message.split('\n').map((line) => `      ${line}`),
  ]);
}
