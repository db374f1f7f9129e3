import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Manifest = { dependencies?: Record<string, string> };

function dependenciesOf(workspace: string): string[] {
  const manifest = JSON.parse(
    readFileSync(join(__dirname, '..', '..', workspace, 'package.json'), 'utf8'),
  ) as Manifest;
  return Object.keys(manifest.dependencies ?? {});
}

/**
 * The worker's image installs the worker's own dependencies only; the API's
 * (Koa, its middleware, argon2) are not there. Loading any of them would
 * crash the worker in production, so here each one throws when required.
 */
const apiOnlyPackages = dependenciesOf('backend').filter(
  (name) => !dependenciesOf('worker').includes(name) && !name.startsWith('@agency/'),
);

/** Makes each API-only package throw when required, and lists the ones that were. */
function refuseApiOnlyPackages(): string[] {
  const loaded: string[] = [];
  for (const name of apiOnlyPackages) {
    jest.doMock(name, () => {
      loaded.push(name);
      throw new Error(`${name} is not installed in the worker's image`);
    });
  }
  return loaded;
}

describe('the worker process', () => {
  afterEach(() => {
    for (const name of apiOnlyPackages) jest.dontMock(name);
  });

  it('knows which packages belong to the API alone', () => {
    expect(apiOnlyPackages).toEqual(expect.arrayContaining(['koa', '@koa/router', 'argon2']));
  });

  it('loads none of them: no HTTP code, no argon2', () => {
    const loaded = refuseApiOnlyPackages();
    jest.isolateModules(() => {
      // Everything src/index.ts imports; index.ts itself would start the process.
      for (const entry of ['@agency/backend/store', './config', './mail/transport', './workers']) {
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
