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
 * Options: --runs N (default 3), --skip-build, --pages /a,/b, --scale N, --visitors N
 *
 * --scale N: the cost curve instead of Lighthouse. The public site stores
 * nothing that grows (every page is built ahead), so what grows is its
 * audience: --visitors (default 10) visitors at once, then N times as many,
 * each visiting every page --visits (default 4) times as a first visit does
 * (the page, then each first-load script and stylesheet, gzip accepted).
 * Per size: time per page (wall time over pages served), the requests' p50
 * and p99, the web server's CPU per page and its peak RSS (VmHWM), side by
 * side with their growth.
 */
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { execa } from 'execa';
import getPort from 'get-port';
import { startService, waitUntilReady } from '../scripts/lib/processes.mjs';
import { LOOPBACK } from '../scripts/lib/services.mjs';
import autocannon from 'autocannon';
import { printCostCurve, wholeNumberOption } from './lib/bench-steps.mjs';
import { cpuSecondsOf, peakRssMbOf, resetPeakRssOf } from './lib/processes.mjs';
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
    scale: { type: 'string' },
    visitors: { type: 'string', default: '10' },
    visits: { type: 'string', default: '4' },
  },
});
const SCALE = wholeNumberOption('scale', options.scale);
const VISITORS = wholeNumberOption('visitors', options.visitors);
const VISITS = wholeNumberOption('visits', options.visits);
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
  return { url, pid: web.pid, stop: () => web.stop() };
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

/**
 * `visitors` visitors at once, each visiting every page VISITS times as a
 * first visit: the page, then each of its first-load files.
 * @param {{ url: string, pid?: number }} server @param {string[]} files @param {number} visitors
 */
async function visitorsLoad(server, files, visitors) {
  // A visit: the page, then each of its first-load files.
  const perVisit = 1 + files.length;
  const pagesServed = visitors * VISITS * pages.length;
  let next = -1;
  resetPeakRssOf(server.pid);
  const cpuBefore = cpuSecondsOf(server.pid);
  const result = await autocannon({
    url: server.url,
    connections: visitors,
    amount: pagesServed * perVisit,
    headers: { 'accept-encoding': 'gzip, deflate, br' },
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => {
          next += 1;
          const at = next % perVisit;
          const page = pages[Math.floor(next / perVisit) % pages.length] ?? '/';
          const path = at === 0 ? page : `/${files[at - 1]}`;
          return { ...request, path };
        },
      },
    ],
  });
  const cpuSeconds = cpuSecondsOf(server.pid) - cpuBefore;
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${failed} of ${result.requests.total} requests failed`);
  return {
    'time per page ms': Number(((result.duration * 1000) / pagesServed).toFixed(2)),
    'request p50 ms': result.latency.p50,
    'request p99 ms': result.latency.p99,
    'web server CPU ms/page': Number(((cpuSeconds * 1000) / pagesServed).toFixed(2)),
    'web server peak RSS MB': Math.round(peakRssMbOf(server.pid)),
  };
}

/**
 * The cost curve: VISITORS and SCALE x VISITORS visitors on the served build.
 * @param {ReturnType<typeof measureFirstLoad>} firstLoad
 */
async function costCurve(firstLoad) {
  const files = firstLoad.assets.filter((asset) => !asset.file.startsWith('index.html'));
  const server = await startWebServer();
  try {
    // Warm-up: the server's first compression of each file, and the JIT.
    await visitorsLoad(
      server,
      files.map((asset) => asset.file),
      2,
    );
    const small = await visitorsLoad(
      server,
      files.map((asset) => asset.file),
      VISITORS,
    );
    const large = await visitorsLoad(
      server,
      files.map((asset) => asset.file),
      VISITORS * SCALE,
    );
    printCostCurve(
      `bench:web cost curve, load average ${(loadavg()[0] ?? 0).toFixed(2)}: ${VISITORS} (1x) and ${VISITORS * SCALE} (${SCALE}x) visitors at once, each visiting ${pages.join(', ')} ${VISITS} times (page, then ${files.length} first-load files)`,
      SCALE,
      small,
      large,
    );
  } finally {
    await server.stop();
  }
}

async function main() {
  const started = new Date();
  const loadBefore = loadavg()[0] ?? 0;
  if (!options['skip-build']) await build();

  const firstLoad = measureFirstLoad(join(frontendDir, 'dist'));
  if (SCALE > 1) {
    await costCurve(firstLoad);
    return;
  }
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
