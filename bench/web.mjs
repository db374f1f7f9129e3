// @ts-check
/**
 * `npm run bench:web`: how heavy and how fast the public site is.
 *
 * 1. Builds the SPA (`npm run build -w frontend`).
 * 2. Measures the first load: gzipped JS and CSS that index.html references,
 *    with every chunk those scripts import statically.
 * 3. Serves frontend/dist the way `npm start` does (vite preview with
 *    frontend/vite.config.ts, which compresses responses) and runs Lighthouse
 *    (npm `lighthouse`, default mobile settings, Chromium from CHROME_PATH or
 *    /usr/bin/chromium) three times on /, /fr/, /ar/, /services and
 *    /portfolio, keeping the median performance, accessibility, best
 *    practices and SEO scores.
 *
 * Prints one table with the targets; exits 1 if one is missed. Lighthouse
 * reports are kept in artifacts/lighthouse/ (git-ignored). Scores move with
 * machine load: the table says when it ran and how busy the machine was.
 *
 * Options: --runs N (default 3), --skip-build, --pages /a,/b
 */
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import getPort from 'get-port';
import { startService, waitUntilReady } from '../scripts/lib/processes.mjs';
import { LOOPBACK } from '../scripts/lib/services.mjs';
import { measureFirstLoad } from './web-first-load.mjs';
import { CATEGORIES, lighthouse } from './web-lighthouse.mjs';

const TARGETS = {
  firstLoadJsKb: 170,
  performance: 95,
  accessibility: 95,
  'best-practices': 95,
  seo: 100,
};
/** @typedef {import('./web-lighthouse.mjs').Category} Category */
const DEFAULT_PAGES = ['/', '/fr/', '/ar/', '/services', '/portfolio'];

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    'skip-build': { type: 'boolean', default: false },
    pages: { type: 'string', default: DEFAULT_PAGES.join(',') },
  },
});
const runs = Number.parseInt(options.runs, 10);
const pages = options.pages.split(',').filter(Boolean);
const rootDir = join(import.meta.dirname, '..');
const frontendDir = join(rootDir, 'frontend');
const reportDir = join(rootDir, 'artifacts', 'lighthouse');

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** @param {number} bytes */
const kb = (bytes) => (bytes / 1024).toFixed(1);

/**
 * Runs a command with its output on ours; resolves with its exit code.
 * @param {string} command @param {string[]} args @param {import('execa').Options} [options]
 */
async function runCommand(command, args, options = {}) {
  const result = await execa(command, args, { stdio: 'inherit', reject: false, ...options });
  return result.exitCode ?? 1;
}

async function build() {
  const code = await runCommand('npm', ['run', 'build', '-w', 'frontend'], { cwd: rootDir });
  if (code !== 0) throw new Error(`the frontend build failed (exit code ${code})`);
}

/** The same server `npm start` runs for the website (scripts/lib/stack.mjs). */
async function startWebServer() {
  const port = await getPort({ host: LOOPBACK });
  const web = startService({
    name: 'web',
    command: join(frontendDir, 'node_modules', '.bin', 'vite'),
    args: ['preview', '--port', String(port), '--strictPort', '--host', LOOPBACK],
    cwd: frontendDir,
    echo: false,
  });
  const url = `http://${LOOPBACK}:${port}`;
  await waitUntilReady([`http-get://${LOOPBACK}:${port}/`], [web], 30_000);
  return { url, stop: () => web.stop() };
}

/** @param {string[][]} rows */
function printTable(rows) {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  const line = (/** @type {string[]} */ row) =>
    `| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  console.log(line(rows[0] ?? []));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const row of rows.slice(1)) console.log(line(row));
}

async function main() {
  const started = new Date();
  const loadBefore = loadavg()[0] ?? 0;
  if (!options['skip-build']) await build();

  const firstLoad = measureFirstLoad(join(frontendDir, 'dist'));
  /** @type {{ page: string, runs: Record<Category, number>[] }[]} */
  const scores = pages.map((page) => ({ page, runs: [] }));

  mkdirSync(reportDir, { recursive: true });
  const server = await startWebServer();
  try {
    // Round-robin so a burst of load elsewhere does not hit one page's three runs.
    for (let run = 1; run <= runs; run++) {
      for (const entry of scores) {
        const name = entry.page.replace(/^\/|\/$/g, '').replace(/\W+/g, '-') || 'home';
        const result = await lighthouse(
          new URL(entry.page, server.url).toString(),
          join(reportDir, `${name}-${run}.json`),
        );
        entry.runs.push(result);
        console.log(
          `run ${run}/${runs} ${entry.page}: ${CATEGORIES.map((category) => `${category} ${result[category]}`).join(', ')}`,
        );
      }
    }
  } finally {
    await server.stop();
  }

  const loadAfter = loadavg()[0] ?? 0;
  const jsKb = firstLoad.js.gzipBytes / 1024;
  /** @type {string[][]} */
  const rows = [
    ['measure', 'value', 'target', 'met'],
    [
      `first-load JS, gzip (${firstLoad.assets.filter((asset) => asset.kind === 'js').length} files)`,
      `${kb(firstLoad.js.gzipBytes)} KB (${kb(firstLoad.js.bytes)} KB raw)`,
      `<= ${TARGETS.firstLoadJsKb} KB`,
      jsKb <= TARGETS.firstLoadJsKb ? 'yes' : 'NO',
    ],
    ['first-load CSS, gzip', `${kb(firstLoad.css.gzipBytes)} KB`, '-', '-'],
  ];
  let allMet = jsKb <= TARGETS.firstLoadJsKb;
  for (const entry of scores) {
    for (const category of CATEGORIES) {
      const values = entry.runs.map((run) => run[category]);
      const value = median(values);
      const met = value >= TARGETS[category];
      allMet &&= met;
      rows.push([
        `Lighthouse ${category} ${entry.page}`,
        `${value} (runs: ${values.join(', ')})`,
        TARGETS[category] === 100 ? '100' : `>= ${TARGETS[category]}`,
        met ? 'yes' : 'NO',
      ]);
    }
  }
  console.log(
    `\nbench:web ${started.toISOString()}, load average ${loadBefore.toFixed(2)} -> ${loadAfter.toFixed(2)} on this machine; Lighthouse median of ${runs}, mobile preset`,
  );
  printTable(rows);
  console.log(
    allMet
      ? '\nAll targets met.'
      : '\nSome targets were missed (scores vary with machine load: re-run when it is idle).',
  );
  process.exitCode = allMet ? 0 : 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
