// @ts-check
/**
 * What runs before any npm package is installed, so Node built-ins only:
 * running a command quietly, and bringing node_modules in line with
 * package-lock.json on a fresh clone or after the lock changed.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SetupError } from './console.mjs';

/**
 * Runs a command to its end. Its output is kept (not shown) unless `show`;
 * a failure throws a SetupError with the last lines of that output.
 * @param {string} command
 * @param {string[]} args
 * @param {{ cwd?: string, env?: NodeJS.ProcessEnv, show?: boolean }} [options]
 * @returns {Promise<string>} the output
 */
export function runQuietly(command, args, { cwd, env = process.env, show = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk) => {
        output += chunk;
        if (show) process.stdout.write(chunk);
      });
    }
    child.once('error', (error) => reject(new SetupError(`${command}: ${error.message}`)));
    child.once('close', (code, signal) => {
      if (code === 0) return resolve(output);
      const tail = output.trim().split('\n').slice(-20).join('\n  ');
      reject(new SetupError(`${command} ${args.join(' ')} failed (${code ?? signal})\n  ${tail}`));
    });
  });
}

/** @param {string} path */
function modifiedAt(path) {
  return existsSync(path) ? statSync(path).mtimeMs : null;
}

/**
 * Why node_modules must be installed, or null when it matches the lock.
 * @param {string} rootDir
 */
export function reasonToInstall(rootDir) {
  const installed = modifiedAt(join(rootDir, 'node_modules', '.package-lock.json'));
  if (installed === null) return 'node_modules is missing';
  const lock = modifiedAt(join(rootDir, 'package-lock.json'));
  return lock !== null && lock > installed
    ? 'package-lock.json changed since the last install'
    : null;
}

/**
 * Optional dependencies the lock names but holds no entry for. npm 11's
 * `npm ci` refuses such a lock; a registry copy without other platforms'
 * binaries (@swc/core-darwin-*, ...) writes exactly that.
 * @param {{ packages?: Record<string, { optionalDependencies?: Record<string, string> }> }} lock
 */
export function optionalDependenciesMissingFromLock(lock) {
  const entries = Object.keys(lock.packages ?? {});
  const locked = new Set(entries.map((path) => path.replace(/^.*node_modules\//, '')));
  const named = Object.values(lock.packages ?? {}).flatMap((entry) =>
    Object.keys(entry.optionalDependencies ?? {}),
  );
  return [...new Set(named)].filter((name) => !locked.has(name));
}

/**
 * `npm ci` when it accepts the lock, else `npm install --no-save`, which
 * installs the same locked versions without rewriting the lock.
 * @param {string} rootDir
 * @returns {{ args: string[], why: string }}
 */
export function npmInstallCommand(rootDir) {
  const lock = JSON.parse(readFileSync(join(rootDir, 'package-lock.json'), 'utf8'));
  const missing = optionalDependenciesMissingFromLock(lock);
  // A fresh install needs no audit report or funding appeal: both cost a registry round trip.
  const quiet = ['--no-audit', '--no-fund'];
  if (missing.length === 0) return { args: ['ci', ...quiet], why: 'npm ci' };
  return {
    args: ['install', '--no-save', ...quiet],
    why: `npm install --no-save (npm ci would refuse this lock: it lacks ${missing.length} other platforms' optional packages)`,
  };
}

/**
 * Installs npm packages when node_modules is missing or older than the lock,
 * printing one line instead of npm's output (shown only if it fails).
 * @param {string} rootDir
 */
export async function installNpmPackages(rootDir) {
  const reason = reasonToInstall(rootDir);
  if (!reason) return;
  const { args, why } = npmInstallCommand(rootDir);
  console.log(`${reason}: installing the locked packages with ${why}...`);
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  // argon2 is compiled on install (its prebuilt binary crashes Node 20) and
  // nothing can be downloaded here: point node-gyp at the installed headers.
  if (!env.npm_config_nodedir && existsSync('/usr/include/node/node_api.h')) {
    env.npm_config_nodedir = '/usr';
  }
  const startedAt = performance.now();
  await runQuietly('npm', args, { cwd: rootDir, env });
  console.log(`npm packages installed (${((performance.now() - startedAt) / 1000).toFixed(0)} s).`);
}
