// @ts-check
/**
 * One Lighthouse run (npm `lighthouse`, default mobile settings, Chromium
 * from CHROME_PATH or /usr/bin/chromium) and its scores out of 100: what
 * bench/web.mjs and bench/web-archive.mjs measure pages with.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';

/** Lighthouse's categories the benches score. */
export const CATEGORIES = /** @type {const} */ ([
  'performance',
  'accessibility',
  'best-practices',
  'seo',
]);
/** @typedef {(typeof CATEGORIES)[number]} Category */
const CHROME_FLAGS = '--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage';
const rootDir = join(import.meta.dirname, '..');

/**
 * @param {string} url
 * @param {string} reportPath
 * @returns {Promise<Record<Category, number>>}
 */
export async function lighthouse(url, reportPath) {
  const result = await execa(
    join(rootDir, 'node_modules', '.bin', 'lighthouse'),
    [
      url,
      `--only-categories=${CATEGORIES.join(',')}`,
      '--output=json',
      `--output-path=${reportPath}`,
      `--chrome-flags=${CHROME_FLAGS}`,
      '--quiet',
    ],
    {
      cwd: rootDir,
      stdio: 'inherit',
      reject: false,
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH || '/usr/bin/chromium' },
    },
  );
  const code = result.exitCode ?? 1;
  if (code !== 0) throw new Error(`lighthouse failed on ${url} (exit code ${code})`);
  const report = JSON.parse(readFileSync(reportPath, 'utf8'));
  if (report.runtimeError) throw new Error(`lighthouse on ${url}: ${report.runtimeError.message}`);
  return /** @type {Record<Category, number>} */ (
    Object.fromEntries(
      CATEGORIES.map((category) => [category, Math.round(report.categories[category].score * 100)]),
    )
  );
}
