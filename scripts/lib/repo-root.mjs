// @ts-check
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The monorepo root: the nearest folder, from `startDir` up, whose
 * package.json declares workspaces. Works the same whether the caller is ESM,
 * transpiled to CommonJS (jest) or loaded by Playwright.
 * @param {string} [startDir]
 */
export function findRepoRoot(startDir = process.cwd()) {
  for (let dir = startDir; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && hasWorkspaces(manifest)) return dir;
    if (dirname(dir) === dir) throw new Error(`No npm workspace root above ${startDir}`);
  }
}

/** @param {string} manifestPath */
function hasWorkspaces(manifestPath) {
  try {
    /** @type {{ workspaces?: unknown }} */
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    return Array.isArray(manifest.workspaces);
  } catch {
    return false;
  }
}
