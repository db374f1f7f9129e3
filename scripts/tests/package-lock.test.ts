import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
/** [name in the test's title, folder]: the root, then each workspace. */
const WORKSPACES = [
  ['root', ''],
  ...['contracts', 'backend', 'worker', 'frontend', 'e2e'].map((w) => [w, w]),
];
const DEPENDENCY_KINDS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;
const lock = readJson<{ packages: Record<string, Manifest & { version?: string }> }>(
  join(root, 'package-lock.json'),
);

/** Where npm would find `name` for the workspace at `folder`: its own node_modules, else the root's. */
function lockedEntry(folder: string, name: string) {
  const own = folder ? lock.packages[`${folder}/node_modules/${name}`] : undefined;
  return own ?? lock.packages[`node_modules/${name}`];
}

/**
 * `npm ci` (the images' build) refuses a lock that disagrees with a
 * manifest, and a fresh install without one resolves the missing packages
 * anew. A dependency added to a package.json without `npm install` is
 * caught here rather than in `docker compose build`.
 */
describe('package-lock.json', () => {
  it.each(WORKSPACES)('lists what the %s manifest depends on', (_name, folder) => {
    const manifest = readJson<Manifest>(join(root, folder, 'package.json'));
    const locked = lock.packages[folder] ?? {};
    for (const kind of DEPENDENCY_KINDS) {
      expect({ [kind]: locked[kind] ?? {} }).toEqual({ [kind]: manifest[kind] ?? {} });
    }
  });

  it.each(WORKSPACES)('holds an entry for every dependency of the %s manifest', (_name, folder) => {
    const manifest = readJson<Manifest>(join(root, folder, 'package.json'));
    const names = DEPENDENCY_KINDS.flatMap((kind) => Object.keys(manifest[kind] ?? {}));
    const missing = names.filter((name) => !lockedEntry(folder, name));
    expect(missing).toEqual([]);
  });
});
