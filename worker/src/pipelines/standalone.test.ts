import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Manifest = { dependencies?: Record<string, string> };
type Lock = { packages: Record<string, Manifest & { link?: boolean; resolved?: string }> };

function dependenciesOf(workspace: string): string[] {
  const manifest = JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', workspace, 'package.json'), 'utf8'),
  ) as Manifest;
  return Object.keys(manifest.dependencies ?? {});
}

/** The worker's dependencies and theirs, as the lock file installs them in its image. */
function installedWithWorker(): Set<string> {
  const lock = JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', 'package-lock.json'), 'utf8'),
  ) as Lock;
  const installed = new Set<string>();
  const pending = dependenciesOf('worker');
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (installed.has(name)) continue;
    installed.add(name);
    // A workspace (@agency/platform) is a link to its folder, whose entry lists its dependencies.
    const entry = lock.packages[`node_modules/${name}`];
    const manifest = entry?.link && entry.resolved ? lock.packages[entry.resolved] : entry;
    pending.push(...Object.keys(manifest?.dependencies ?? {}));
  }
  return installed;
}

/**
 * The worker's image installs the worker's own dependencies only; the API's
 * (Koa, its middleware, argon2) are not there. Loading any of them would
 * crash the worker in production, so here each one throws when required.
 * (A package the worker's own dependencies bring, such as luxon through
 * BullMQ's cron parser, is in the image and may load.)
 */
const withWorker = installedWithWorker();
const apiOnlyPackages = dependenciesOf('backend').filter(
  (name) => !withWorker.has(name) && !name.startsWith('@agency/'),
);

/**
 * Where the backend's code finds each package. npm does not hoist a package
 * whose version clashes with another's (sanitize-html), so it is mocked by
 * the path the backend resolves, not by the name as seen from here.
 */
const backendDir = join(__dirname, '..', '..', '..', 'backend');
const apiOnlyModules = apiOnlyPackages.map((name) => ({
  name,
  path: require.resolve(name, { paths: [backendDir] }),
}));

/** Makes each API-only package throw when required, and lists the ones that were. */
function refuseApiOnlyPackages(): string[] {
  const loaded: string[] = [];
  for (const { name, path } of apiOnlyModules) {
    jest.doMock(path, () => {
      loaded.push(name);
      throw new Error(`${name} is not installed in the worker's image`);
    });
  }
  return loaded;
}

describe('the worker process', () => {
  afterEach(() => {
    for (const { path } of apiOnlyModules) jest.dontMock(path);
  });

  it('knows which packages belong to the API alone', () => {
    expect(apiOnlyPackages).toEqual(expect.arrayContaining(['koa', '@koa/router', 'argon2']));
  });

  it('loads none of them: no HTTP code, no argon2', () => {
    const loaded = refuseApiOnlyPackages();
    jest.isolateModules(() => {
      // Everything src/index.ts imports; index.ts itself would start the process.
      for (const entry of ['@agency/platform', '../config', '../mail/transport', '../workers']) {
        jest.requireActual(entry);
      }
    });
    expect(loaded).toEqual([]);
  });

  it('would notice if one were loaded', () => {
    const loaded = refuseApiOnlyPackages();
    expect(() =>
      jest.isolateModules(() => {
        jest.requireActual('@agency/backend');
      }),
    ).toThrow("is not installed in the worker's image");
    expect(loaded).not.toEqual([]);
  });
});
