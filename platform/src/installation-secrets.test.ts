import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transformFileSync } from '@swc/core';
import { isRetiredPublicSecret, keptSecret, keptSecretPath } from './installation-secrets';

const run = promisify(execFile);

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'agency-kept-secrets-'));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

describe('a secret kept in the data folder', () => {
  it('is made random at its first use and read back the same afterwards', () => {
    const made = keptSecret(folder, 'MAIL_LINK_SECRET');
    expect(made).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(keptSecret(folder, 'MAIL_LINK_SECRET')).toBe(made);
    expect(keptSecret(folder, 'JWT_SECRET')).not.toBe(made);
  });

  it('is readable and writable by its owner alone, and leaves no draft behind', () => {
    keptSecret(folder, 'JWT_SECRET');
    expect(statSync(keptSecretPath(folder, 'JWT_SECRET')).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(folder, 'secrets'))).toEqual(['JWT_SECRET']);
  });

  it('is refused when the kept file holds too little to be a secret of ours', () => {
    mkdirSync(join(folder, 'secrets'));
    writeFileSync(keptSecretPath(folder, 'JWT_SECRET'), 'short\n');
    expect(() => keptSecret(folder, 'JWT_SECRET')).toThrow(/fewer than 32 characters/);
  });

  it('is one secret when several processes make it at the same moment', async () => {
    // The module as Node runs it, in processes of their own: a race inside one
    // process cannot happen, its file calls are synchronous.
    const { code } = transformFileSync(join(__dirname, 'installation-secrets.ts'), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    });
    const moduleFile = join(folder, 'installation-secrets.cjs');
    writeFileSync(moduleFile, code);
    const dataDir = join(folder, 'data');
    const startAt = Date.now() + 1500;
    const script = `
      const { keptSecret } = require(${JSON.stringify(moduleFile)});
      while (Date.now() < ${startAt});
      process.stdout.write(keptSecret(${JSON.stringify(dataDir)}, 'MAIL_LINK_SECRET'));
    `;
    const outputs = await Promise.all(
      Array.from({ length: 6 }, () => run(process.execPath, ['-e', script])),
    );
    const secrets = new Set(outputs.map(({ stdout }) => stdout));
    expect(secrets.size).toBe(1);
    expect([...secrets][0]).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(readdirSync(join(dataDir, 'secrets'))).toEqual(['MAIL_LINK_SECRET']);
  });
});

describe('the development secrets older releases published', () => {
  it('are known by their digests, and nothing else is', () => {
    expect(isRetiredPublicSecret('development-only-jwt-secret-never-use-in-production')).toBe(true);
    expect(isRetiredPublicSecret('development-only-mail-link-secret')).toBe(true);
    expect(isRetiredPublicSecret('development-only-mail-link-secret ')).toBe(false);
  });
});
