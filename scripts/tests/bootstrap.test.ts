import { mkdtempSync, rmSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmInstallCommand, reasonToInstall } from '../lib/bootstrap.mjs';

describe('installing npm packages on a fresh clone', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'bootstrap-test-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const writeLock = (packages: Record<string, object>) =>
    writeFileSync(
      join(root, 'package-lock.json'),
      JSON.stringify({ lockfileVersion: 3, packages }),
    );

  it('uses npm ci when the lock holds every optional package it names', () => {
    writeLock({
      '': { name: 'app' },
      'node_modules/@swc/core': { optionalDependencies: { '@swc/core-linux-x64-gnu': '1.0.0' } },
      'node_modules/@swc/core-linux-x64-gnu': { version: '1.0.0' },
    });
    expect(npmInstallCommand(root).args).toEqual(['ci', '--no-audit', '--no-fund']);
  });

  it('says in one line why it installs without npm ci when the lock lacks other platforms', () => {
    writeLock({
      '': { name: 'app' },
      'node_modules/@swc/core': {
        optionalDependencies: {
          '@swc/core-linux-x64-gnu': '1.0.0',
          '@swc/core-darwin-arm64': '1.0.0',
          '@swc/core-win32-x64-msvc': '1.0.0',
        },
      },
      'node_modules/@swc/core-linux-x64-gnu': { version: '1.0.0' },
    });
    const { args, why } = npmInstallCommand(root);
    expect(args).toEqual(['install', '--no-save', '--no-audit', '--no-fund']);
    expect(why).toMatch(/npm ci would refuse this lock: it lacks 2 other platforms' optional/);
    expect(why).not.toContain('\n');
  });

  it('installs when node_modules is missing or older than the lock', () => {
    writeLock({ '': { name: 'app' } });
    expect(reasonToInstall(root)).toBe('node_modules is missing');

    mkdirSync(join(root, 'node_modules'));
    writeFileSync(join(root, 'node_modules', '.package-lock.json'), '{}');
    utimesSync(join(root, 'package-lock.json'), new Date(), new Date(Date.now() + 60_000));
    expect(reasonToInstall(root)).toBe('package-lock.json changed since the last install');

    utimesSync(
      join(root, 'node_modules', '.package-lock.json'),
      new Date(),
      new Date(Date.now() + 120_000),
    );
    expect(reasonToInstall(root)).toBeNull();
  });
});
