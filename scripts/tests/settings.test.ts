import { appEnvironment, LOCAL_AGENCY_INBOX, wantsDemoMode } from '../lib/app-env.mjs';
import { redactCredentials } from '../lib/console.mjs';
import { parseTestArgs } from '../lib/test-steps.mjs';

describe('printed connection strings', () => {
  it('hide passwords', () => {
    expect(redactCredentials('redis://:secret@host:6379')).toBe('redis://:***@host:6379');
    expect(redactCredentials('mongodb://user:pw@h/db')).toBe('mongodb://user:***@h/db');
    expect(redactCredentials('mongodb://h:27017/db')).toBe('mongodb://h:27017/db');
  });
});

describe('the environment of the API and the worker', () => {
  const run = {
    apiPort: 4100,
    webUrl: 'http://127.0.0.1:5173',
    mongodbUri: 'mongodb://127.0.0.1:27018/agency',
    redisUrl: 'redis://127.0.0.1:6390',
    smtpUrl: 'smtp://127.0.0.1:1025',
    demoMode: true,
  };

  it('adds only what the run decides to the caller environment', () => {
    const env = appEnvironment({ ...run, baseEnv: { PATH: '/usr/bin' } });
    expect(env).toEqual({
      PATH: '/usr/bin',
      API_PORT: '4100',
      CORS_ORIGIN: 'http://127.0.0.1:5173',
      MONGODB_URI: 'mongodb://127.0.0.1:27018/agency',
      REDIS_URL: 'redis://127.0.0.1:6390',
      SMTP_URL: 'smtp://127.0.0.1:1025',
      DEMO_MODE: 'true',
      // The worker requires one and has no default: MailDev catches it.
      MAIL_TO: LOCAL_AGENCY_INBOX,
    });
  });

  it('keeps the caller settings it does not decide, and the run settings', () => {
    const env = appEnvironment({
      ...run,
      baseEnv: { MAIL_TO: 'ops@example.com', DEMO_ADMIN_PASSWORD: 'mine-12345' },
      runSettings: { QUEUE_PREFIX: 'agency-e2e' },
    });
    expect(env).toMatchObject({
      MAIL_TO: 'ops@example.com',
      DEMO_ADMIN_PASSWORD: 'mine-12345',
      QUEUE_PREFIX: 'agency-e2e',
    });
  });

  it('never turns demo mode on in production', () => {
    const env = appEnvironment({ ...run, baseEnv: { NODE_ENV: 'production', DEMO_MODE: 'true' } });
    expect(env.DEMO_MODE).toBe('false');
    expect(wantsDemoMode({ NODE_ENV: 'production' })).toBe(false);
    expect(wantsDemoMode({ DEMO_MODE: 'false' })).toBe(false);
    expect(wantsDemoMode({})).toBe(true);
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
