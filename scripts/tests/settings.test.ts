import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  appEnvironment,
  LOCAL_AGENCY_INBOX,
  WORKER_HEAP_MB_DEFAULT,
  wantsDemoMode,
  WEB_PROXY_ADDRESS,
  workerNodeOptions,
  workerProcessEnv,
} from '../lib/app-env.mjs';
import { redactCredentials } from '../lib/console.mjs';
import {
  budgetSkipReason,
  parseTestArgs,
  RUN_BUDGET_SECONDS,
  stepCommand,
  stepGroups,
} from '../lib/test-steps.mjs';

const ROOT = join(__dirname, '..', '..');

describe('printed connection strings', () => {
  it('hide passwords', () => {
    expect(redactCredentials('redis://:secret@host:6379')).toBe('redis://:***@host:6379');
    expect(redactCredentials('mongodb://user:pw@h/db')).toBe('mongodb://user:***@h/db');
    expect(redactCredentials('mongodb://h:27017/db')).toBe('mongodb://h:27017/db');
  });
});

describe('the environment of the API and the worker', () => {
  const run = {
    dataDir: '/srv/agency/.data',
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
      // Where the API and the worker keep the secrets they make outside production.
      DATA_DIR: '/srv/agency/.data',
      // Uploaded images live with the rest of the installation's data.
      MEDIA_DIR: '/srv/agency/.data/media',
      API_PORT: '4100',
      CORS_ORIGIN: 'http://127.0.0.1:5173',
      // Page addresses and mail links name the address the website took.
      SITE_URL: 'http://127.0.0.1:5173',
      MONGODB_URI: 'mongodb://127.0.0.1:27018/agency',
      REDIS_URL: 'redis://127.0.0.1:6390',
      SMTP_URL: 'smtp://127.0.0.1:1025',
      DEMO_MODE: 'true',
      // The worker requires one and has no default: MailDev catches it.
      MAIL_TO: LOCAL_AGENCY_INBOX,
      // The web server's proxy, whose X-Forwarded-For names each visitor.
      TRUST_PROXY: '127.0.0.1',
    });
  });

  it('trusts the web server alone to name the visitor, whatever the caller says', () => {
    const env = appEnvironment({ ...run, baseEnv: { TRUST_PROXY: 'true' } });
    expect(env.TRUST_PROXY).toBe(WEB_PROXY_ADDRESS);
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

  it('names the website by the port it really took, unless the caller names its public address', () => {
    const busy = appEnvironment({ ...run, webUrl: 'http://127.0.0.1:5174', baseEnv: {} });
    expect(busy).toMatchObject({
      SITE_URL: 'http://127.0.0.1:5174',
      CORS_ORIGIN: 'http://127.0.0.1:5174',
    });
    const named = appEnvironment({ ...run, baseEnv: { SITE_URL: 'https://agency.example' } });
    expect(named.SITE_URL).toBe('https://agency.example');
  });

  it('never turns demo mode on in production', () => {
    const env = appEnvironment({ ...run, baseEnv: { NODE_ENV: 'production', DEMO_MODE: 'true' } });
    expect(env.DEMO_MODE).toBe('false');
    expect(wantsDemoMode({ NODE_ENV: 'production' })).toBe(false);
    expect(wantsDemoMode({ DEMO_MODE: 'false' })).toBe(false);
    expect(wantsDemoMode({})).toBe(true);
  });
});

describe("the worker's heap cap", () => {
  it('is 112 MB unless WORKER_HEAP_MB says otherwise', () => {
    expect(WORKER_HEAP_MB_DEFAULT).toBe(112);
    expect(workerNodeOptions({})).toBe('--max-old-space-size=112 --max-semi-space-size=4');
    expect(workerNodeOptions({ WORKER_HEAP_MB: '' })).toBe(
      '--max-old-space-size=112 --max-semi-space-size=4',
    );
    expect(workerNodeOptions({ WORKER_HEAP_MB: '256' })).toBe(
      '--max-old-space-size=256 --max-semi-space-size=4',
    );
  });

  it("comes after the caller's own NODE_OPTIONS, which it keeps", () => {
    expect(workerNodeOptions({ NODE_OPTIONS: '--enable-source-maps', WORKER_HEAP_MB: '96' })).toBe(
      '--enable-source-maps --max-old-space-size=96 --max-semi-space-size=4',
    );
  });

  it('refuses a value that is not a whole number of MB, or too small to run', () => {
    for (const bad of ['1.5', '112mb', '-5', '63']) {
      expect(() => workerNodeOptions({ WORKER_HEAP_MB: bad })).toThrow(
        `WORKER_HEAP_MB must be a whole number of MB, 64 or more (got "${bad}")`,
      );
    }
    expect(workerNodeOptions({ WORKER_HEAP_MB: '64' })).toBe(
      '--max-old-space-size=64 --max-semi-space-size=4',
    );
  });
});

describe("the worker's process settings", () => {
  it("are its heap cap and glibc's two arenas and fixed mmap threshold, unless the caller set them", () => {
    expect(workerProcessEnv({})).toEqual({
      MALLOC_ARENA_MAX: '2',
      MALLOC_MMAP_THRESHOLD_: '131072',
      NODE_OPTIONS: '--max-old-space-size=112 --max-semi-space-size=4',
    });
    expect(
      workerProcessEnv({
        MALLOC_ARENA_MAX: '4',
        MALLOC_MMAP_THRESHOLD_: '65536',
        WORKER_HEAP_MB: '96',
      }),
    ).toEqual({
      MALLOC_ARENA_MAX: '4',
      MALLOC_MMAP_THRESHOLD_: '65536',
      NODE_OPTIONS: '--max-old-space-size=96 --max-semi-space-size=4',
    });
  });
});

describe('npm test arguments', () => {
  it('runs every step by default', () => {
    expect(parseTestArgs([]).steps).toEqual([
      'lint',
      'typecheck',
      'build',
      'jest',
      'timing',
      'e2e',
      'cluster',
    ]);
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
    expect(parseTestArgs(['--only', 'cluster']).steps).toEqual(['build', 'cluster']);
    expect(parseTestArgs(['--only', 'a11y']).steps).toEqual(['build', 'a11y']);
    expect(() => parseTestArgs(['--only', 'nope'])).toThrow(/--only takes one of/);
  });

  it('runs the accessibility scan with the behaviour suite, and alone when asked', () => {
    expect(parseTestArgs([]).steps).not.toContain('a11y');
    // Each step runs its npm script: the Playwright command line is written once, there.
    const scriptOf = (step: 'e2e' | 'a11y') => {
      const [command, args] = stepCommand(step, []);
      expect(command).toBe('npm');
      const scripts = (
        JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
          scripts: Record<string, string>;
        }
      ).scripts;
      return scripts[args[1] ?? ''] ?? '';
    };
    // The outage test runs last: it stops the MailDev the other two use.
    expect(scriptOf('e2e')).toMatch(/--project e2e --project a11y --project outage$/);
    expect(scriptOf('a11y')).toMatch(/--project a11y$/);
  });

  it('runs lint beside typecheck, and every other step on its own, in order', () => {
    expect(stepGroups(parseTestArgs([]).steps)).toEqual([
      ['typecheck', 'lint'],
      ['build'],
      ['jest'],
      ['timing'],
      ['e2e'],
      ['cluster'],
    ]);
    expect(stepGroups(['lint'])).toEqual([['lint']]);
    expect(stepGroups(['build', 'e2e'])).toEqual([['build'], ['e2e']]);
  });

  it('starts the cluster test in a whole run only while it still ends within the budget', () => {
    const wholeRun = (elapsedSeconds: number) =>
      budgetSkipReason('cluster', { elapsedSeconds, wholeRun: true });
    expect(RUN_BUDGET_SECONDS).toBe(1800);
    expect(wholeRun(1500)).toBeNull();
    expect(wholeRun(1560)).toBeNull();
    expect(wholeRun(1561)).toMatch(
      /^cluster left out: the run has taken 26\.0 min, .* past its 30\.0-minute budget\. Run it on its own: npm test -- --only cluster$/,
    );
    // Asked for by name, it runs whatever the time; other steps are never left out.
    expect(budgetSkipReason('cluster', { elapsedSeconds: 5000, wholeRun: false })).toBeNull();
    expect(budgetSkipReason('e2e', { elapsedSeconds: 5000, wholeRun: true })).toBeNull();
  });
});
