import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  mongoServerArgs,
  redactCredentials,
  redisServerArgs,
  withDatabaseName,
} from '../lib/services.mjs';
import { buildAppEnv, DEFAULT_DEMO_ADMIN } from '../lib/stack.mjs';
import { parseTestArgs } from '../lib/test-steps.mjs';

describe('connection strings', () => {
  it('swaps the database name and keeps the options', () => {
    expect(withDatabaseName('mongodb://127.0.0.1:27017/agency', 'agency_e2e')).toBe(
      'mongodb://127.0.0.1:27017/agency_e2e',
    );
    expect(withDatabaseName('mongodb://u:p@a:1,b:2/?replicaSet=rs0', 'x')).toBe(
      'mongodb://u:p@a:1,b:2/x?replicaSet=rs0',
    );
  });

  it('hides passwords before printing', () => {
    expect(redactCredentials('redis://:secret@host:6379')).toBe('redis://:***@host:6379');
    expect(redactCredentials('mongodb://user:pw@h/db')).toBe('mongodb://user:***@h/db');
    expect(redactCredentials('mongodb://h:27017/db')).toBe('mongodb://h:27017/db');
  });
});

describe('service command lines', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'scripts-test-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs Redis without persistence on loopback', () => {
    const args = redisServerArgs(dataDir, '127.0.0.1', 6390);
    expect(args.join(' ')).toContain('--port 6390 --bind 127.0.0.1 --save  --appendonly no');
  });

  it('runs FerretDB on SQLite inside the data folder', () => {
    const args = mongoServerArgs(
      { kind: 'ferretdb', path: 'ferretdb' },
      dataDir,
      '127.0.0.1',
      1,
      2,
    );
    expect(args).toEqual(
      expect.arrayContaining([
        '--handler=sqlite',
        `--sqlite-url=file:${join(dataDir, 'ferretdb')}/`,
        '--listen-addr=127.0.0.1:1',
        '--debug-addr=127.0.0.1:2',
      ]),
    );
  });
});

describe('app environment', () => {
  const base = { mongodbUri: 'mongodb://h/db', redisUrl: 'redis://h', apiPort: 4100 };

  it('passes services, ports and demo credentials', () => {
    const env = buildAppEnv({
      ...base,
      webUrl: 'http://127.0.0.1:5173',
      demoMode: true,
      nodeEnv: 'development',
    });
    expect(env).toMatchObject({
      API_PORT: '4100',
      CORS_ORIGIN: 'http://127.0.0.1:5173',
      DEMO_MODE: 'true',
      DEMO_ADMIN_PASSWORD: process.env.DEMO_ADMIN_PASSWORD || DEFAULT_DEMO_ADMIN.password,
    });
  });

  it('never turns demo mode on in production', () => {
    const env = buildAppEnv({
      ...base,
      webUrl: 'https://example.com',
      demoMode: true,
      nodeEnv: 'production',
      env: { DEMO_MODE: 'true' },
    });
    expect(env.DEMO_MODE).toBe('false');
  });
});

describe('npm test arguments', () => {
  it('runs every step by default', () => {
    expect(parseTestArgs([]).steps).toEqual(['lint', 'typecheck', 'build', 'jest', 'e2e']);
  });

  it('gives extra arguments to jest and runs only jest', () => {
    expect(parseTestArgs(['backend/src/modules/contact'])).toEqual({
      steps: ['jest'],
      jestArgs: ['backend/src/modules/contact'],
    });
    expect(parseTestArgs(['--only', 'jest', '-t', 'rate'])).toEqual({
      steps: ['jest'],
      jestArgs: ['-t', 'rate'],
    });
  });

  it('builds before e2e and rejects unknown steps', () => {
    expect(parseTestArgs(['--only=e2e']).steps).toEqual(['build', 'e2e']);
    expect(() => parseTestArgs(['--only', 'nope'])).toThrow(/--only takes one of/);
  });
});
