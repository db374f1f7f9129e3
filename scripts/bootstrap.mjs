// @ts-check
/**
 * Makes sure node_modules matches package-lock.json before anything imports a
 * dependency: runs `npm ci` when node_modules is missing or older than the
 * lock file. Uses Node built-ins only, so it runs on a fresh clone.
 */
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The monorepo root (this file lives in <root>/scripts). */
export const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

/** @param {string} path */
function modifiedAt(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * Why `npm ci` is needed, or null when node_modules is up to date.
 * @param {string} rootDir
 * @returns {string | null}
 */
export function reasonToInstall(rootDir) {
  const installedLock = modifiedAt(join(rootDir, 'node_modules', '.package-lock.json'));
  if (installedLock === null) return 'node_modules is missing';
  const lock = modifiedAt(join(rootDir, 'package-lock.json'));
  if (lock !== null && lock > installedLock)
    return 'package-lock.json changed since the last install';
  return null;
}

/**
 * @param {string} rootDir
 * @param {string[]} args
 */
function runNpm(rootDir, args) {
  return spawnSync('npm', args, {
    cwd: rootDir,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
}

/**
 * Runs `npm ci` (without browser downloads) when needed; exits on failure.
 * @param {string} [rootDir]
 */
export function bootstrap(rootDir = REPO_ROOT) {
  const reason = reasonToInstall(rootDir);
  if (!reason) return;
  console.log(`${reason}: running npm ci...`);
  // npm 11 refuses `npm ci` when the lock lacks other platforms' optional
  // binaries (a registry copy without them wrote it); `npm install --no-save`
  // then installs the same locked versions without rewriting the lock.
  let result = runNpm(rootDir, ['ci']);
  if (result.status !== 0) result = runNpm(rootDir, ['install', '--no-save']);
  if (result.status !== 0) {
    console.error(
      `npm install failed (exit ${result.status ?? result.signal}); fix that and retry.`,
    );
    process.exit(result.status || 1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) bootstrap();
