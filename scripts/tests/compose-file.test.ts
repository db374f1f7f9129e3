/**
 * Checks docker-compose.yml, the file operators run, on a machine without a
 * Docker engine: Debian's docker-compose validates it (`config -q` reports bad
 * keys, bad depends_on conditions and missing build contexts) and the rest is
 * read with the yaml package.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import {
  WORKER_HEAP_MB_DEFAULT,
  WORKER_MALLOC_DEFAULTS,
  WORKER_SEMI_SPACE_MB,
} from '../lib/app-env.mjs';

const repoRoot = resolve(__dirname, '..', '..');
const composePath = join(repoRoot, 'docker-compose.yml');
const envExamplePath = join(repoRoot, '.env.example');

type Mapping = Record<string, unknown>;

const isMapping = (value: unknown): value is Mapping =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const asMapping = (value: unknown, what: string): Mapping => {
  if (!isMapping(value)) {
    throw new Error(`${what} should be a mapping in docker-compose.yml`);
  }
  return value;
};

const asString = (value: unknown, what: string): string => {
  if (typeof value !== 'string') {
    throw new Error(`${what} should be a string in docker-compose.yml`);
  }
  return value;
};

// `merge`: the Sentinels share one definition through a `<<` merge key, as compose reads it.
const readCompose = (): Mapping =>
  asMapping(parse(readFileSync(composePath, 'utf8'), { merge: true }), 'the file');

const service = (compose: Mapping, name: string): Mapping =>
  asMapping(asMapping(compose.services, 'services')[name], `services.${name}`);

const dependencyCondition = (compose: Mapping, from: string, to: string): unknown => {
  const dependsOn = asMapping(service(compose, from).depends_on, `services.${from}.depends_on`);
  return asMapping(dependsOn[to], `services.${from}.depends_on.${to}`).condition;
};

/** Runs Debian's docker-compose (1.29); it needs no engine for `config`. */
const dockerCompose = (args: readonly string[]): { status: number | null; output: string } => {
  const result = spawnSync('docker-compose', args, { cwd: repoRoot, encoding: 'utf8' });
  if (result.error) {
    const code = (result.error as NodeJS.ErrnoException).code;
    throw new Error(
      code === 'ENOENT'
        ? 'docker-compose is not installed, so docker-compose.yml cannot be validated: run `apt-get install -y docker-compose`'
        : `docker-compose could not run: ${result.error.message}`,
    );
  }
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
};

describe('docker-compose.yml', () => {
  it('is accepted by `docker-compose config -q`', () => {
    const { status, output } = dockerCompose(['-f', 'docker-compose.yml', 'config', '-q']);
    expect({ status, output }).toEqual({ status: 0, output: '' });
  });

  it('is accepted with the redis-ha profile (a Redis replica and three Sentinels)', () => {
    const { status, output } = dockerCompose([
      '--profile',
      'redis-ha',
      '-f',
      'docker-compose.yml',
      'config',
      '-q',
    ]);
    expect({ status, output }).toEqual({ status: 0, output: '' });
  });

  it('stays valid with the values of .env.example', () => {
    const { status, output } = dockerCompose([
      '--env-file',
      '.env.example',
      '-f',
      'docker-compose.yml',
      'config',
      '-q',
    ]);
    expect({ status, output }).toEqual({ status: 0, output: '' });
  });

  it('declares the six services of the stack', () => {
    const services = asMapping(readCompose().services, 'services');
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['mongo', 'redis', 'maildev', 'api', 'worker', 'web']),
    );
  });

  it('runs MongoDB 7 and Redis 7, Redis with AOF and without eviction', () => {
    const compose = readCompose();
    expect(asString(service(compose, 'mongo').image, 'mongo.image')).toMatch(/^mongo:7/);
    const redis = service(compose, 'redis');
    expect(asString(redis.image, 'redis.image')).toMatch(/^redis:7/);
    const command = Array.isArray(redis.command)
      ? redis.command.map(String).join(' ')
      : asString(redis.command, 'redis.command');
    expect(command).toContain('noeviction');
    expect(command).toContain('appendonly yes');
  });

  it('catches mail with the MailDev that npm start and the e2e suite run, at the same version', () => {
    const compose = readCompose();
    const rootManifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const npmVersion = rootManifest.devDependencies.maildev?.replace(/^[~^]/, '');
    expect(asString(service(compose, 'maildev').image, 'maildev.image')).toBe(
      `maildev/maildev:${npmVersion}`,
    );
    const workerEnv = asMapping(service(compose, 'worker').environment, 'worker.environment');
    expect(asString(workerEnv.SMTP_URL, 'worker.environment.SMTP_URL')).toContain(
      'smtp://maildev:1025',
    );
  });

  it('caps the worker heap as npm start does, with the same default', () => {
    const workerEnv = asMapping(service(readCompose(), 'worker').environment, 'worker.environment');
    expect(workerEnv.NODE_OPTIONS).toBe(
      `--max-old-space-size=\${WORKER_HEAP_MB:-${WORKER_HEAP_MB_DEFAULT}} --max-semi-space-size=${WORKER_SEMI_SPACE_MB}`,
    );
  });

  it("tunes the worker's allocator as npm start does", () => {
    const workerEnv = asMapping(service(readCompose(), 'worker').environment, 'worker.environment');
    expect({
      MALLOC_ARENA_MAX: workerEnv.MALLOC_ARENA_MAX,
      MALLOC_MMAP_THRESHOLD_: workerEnv.MALLOC_MMAP_THRESHOLD_,
    }).toEqual(WORKER_MALLOC_DEFAULTS);
  });

  it('gives every service but the worker a healthcheck', () => {
    const services = asMapping(readCompose().services, 'services');
    const withoutHealthcheck = Object.entries(services)
      .filter(([name]) => name !== 'worker')
      .filter(([, definition]) => {
        const healthcheck = asMapping(definition, 'a service').healthcheck;
        return !isMapping(healthcheck) || healthcheck.disable === true || !healthcheck.test;
      })
      .map(([name]) => name);
    expect(withoutHealthcheck).toEqual([]);
  });

  it('starts each process once what it needs is healthy', () => {
    const compose = readCompose();
    expect(dependencyCondition(compose, 'api', 'mongo')).toBe('service_healthy');
    expect(dependencyCondition(compose, 'api', 'redis')).toBe('service_healthy');
    expect(dependencyCondition(compose, 'worker', 'mongo')).toBe('service_healthy');
    expect(dependencyCondition(compose, 'worker', 'redis')).toBe('service_healthy');
    expect(['service_started', 'service_healthy']).toContain(
      dependencyCondition(compose, 'worker', 'maildev'),
    );
    expect(dependencyCondition(compose, 'web', 'api')).toBe('service_healthy');
  });

  it('builds api, worker and web from Dockerfiles that exist', () => {
    const services = asMapping(readCompose().services, 'services');
    const built = Object.entries(services).flatMap(([name, definition]) => {
      const build = asMapping(definition, name).build;
      if (build === undefined) return [];
      const { context = '.', dockerfile = 'Dockerfile' } = isMapping(build)
        ? build
        : { context: build };
      const path = join(
        repoRoot,
        asString(context, `${name}.build.context`),
        asString(dockerfile, `${name}.build.dockerfile`),
      );
      return [{ name, path, exists: existsSync(path) }];
    });
    expect(built.map(({ name }) => name).sort()).toEqual(['api', 'web', 'worker']);
    expect(built.filter(({ exists }) => !exists)).toEqual([]);
  });

  it('declares the named volumes the services mount', () => {
    const compose = readCompose();
    const declared = Object.keys(asMapping(compose.volumes, 'volumes'));
    expect(declared).toEqual(expect.arrayContaining(['mongo-data', 'redis-data']));
    const mounted = Object.values(asMapping(compose.services, 'services')).flatMap((definition) => {
      const volumes = asMapping(definition, 'a service').volumes;
      if (!Array.isArray(volumes)) return [];
      return volumes.map((volume) =>
        typeof volume === 'string' ? volume.split(':')[0] : asMapping(volume, 'a volume').source,
      );
    });
    const namedButUndeclared = mounted.filter(
      (source) =>
        typeof source === 'string' && /^[\w-]+$/.test(source) && !declared.includes(source),
    );
    expect(namedButUndeclared).toEqual([]);
  });

  it('reaches the API only through web, whose client addresses it trusts', () => {
    const api = service(readCompose(), 'api');
    // TRUST_PROXY makes the API believe X-Forwarded-For: safe only while
    // nothing but nginx can reach it, and only from the compose networks.
    expect(api).not.toHaveProperty('ports');
    expect(asMapping(api.environment, 'api.environment').TRUST_PROXY).toBe('uniquelocal');
    // nginx replaces the visitor's X-Forwarded-For (appending would keep a forged first entry).
    const nginx = readFileSync(join(repoRoot, 'frontend', 'nginx.conf'), 'utf8');
    expect(nginx).toMatch(/^\s*proxy_set_header X-Forwarded-For \$remote_addr;$/m);
    expect(nginx).toMatch(/^\s*proxy_set_header X-Forwarded-Host "";$/m);
  });

  it('writes out a default only where this setting differs from the configuration schemas', () => {
    // The schemas in backend/src/config.ts and worker/src/config.ts hold every
    // default; a copy here would drift from them. Blank (`${VAR:-}`) means
    // "the schema's default".
    const composeText = readFileSync(composePath, 'utf8');
    const withDefault = [...composeText.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*):-([^}]+)\}/g)]
      .map((match) => match[1])
      .filter((name): name is string => name !== undefined);
    const differsInCompose = [
      'NODE_ENV', // production
      'MONGODB_URI', // the mongo service
      'REDIS_URL', // the redis service
      'SMTP_URL', // the maildev service
      'MAIL_TO', // required, no schema default
      'CORS_ORIGIN', // the web service's origin
      'WEB_PORT', // host ports: compose only
      'MAIL_INBOX_PORT',
      'WORKER_HEAP_MB', // a start flag no schema holds; checked against npm start's above
    ];
    expect([...new Set(withDefault)].filter((name) => !differsInCompose.includes(name))).toEqual(
      [],
    );
  });

  it('lets the worker and the API scale: no container_name and no host port', () => {
    for (const name of ['worker', 'api']) {
      const scaled = service(readCompose(), name);
      expect(scaled).not.toHaveProperty('container_name');
      expect(scaled).not.toHaveProperty('ports');
    }
  });

  it('balances the API replicas in web: nginx asks Docker DNS for every api address at request time', () => {
    const nginx = readFileSync(join(repoRoot, 'frontend', 'nginx.conf'), 'utf8');
    // A variable makes nginx resolve the name per request (with `valid`), and
    // use every address it gets in turn; a literal host is resolved once, at start.
    expect(nginx).toMatch(/^resolver 127\.0\.0\.11 valid=\d+s/m);
    expect(nginx).toMatch(
      /set \$api_upstream http:\/\/api:4000;\s+[^}]*proxy_pass \$api_upstream;/,
    );
  });

  it('runs a Redis replica and three Sentinels watching redis in the redis-ha profile only', () => {
    const compose = readCompose();
    const profileOf = (name: string) => service(compose, name).profiles;
    for (const name of [
      'redis-replica',
      'redis-sentinel-1',
      'redis-sentinel-2',
      'redis-sentinel-3',
    ]) {
      expect({ name, profiles: profileOf(name) }).toEqual({ name, profiles: ['redis-ha'] });
    }
    for (const name of ['mongo', 'redis', 'maildev', 'api', 'worker', 'web']) {
      expect({ name, profiles: profileOf(name) }).toEqual({ name, profiles: undefined });
    }
    const replicaCommand = (service(compose, 'redis-replica').command as unknown[]).join(' ');
    expect(replicaCommand).toContain('--replicaof redis 6379');
    expect(replicaCommand).toContain('noeviction');
    const sentinelCommand = (service(compose, 'redis-sentinel-1').command as unknown[]).join(' ');
    expect(sentinelCommand).toContain("'sentinel monitor agency redis 6379 2'");
    expect(sentinelCommand).toContain('--sentinel');
  });

  it('lets the API and the worker reach Redis through Sentinels when REDIS_SENTINELS is set', () => {
    for (const name of ['api', 'worker']) {
      const environment = asMapping(
        service(readCompose(), name).environment,
        `${name}.environment`,
      );
      expect(environment).toMatchObject({
        REDIS_SENTINELS: '${REDIS_SENTINELS:-}',
        REDIS_SENTINEL_NAME: '${REDIS_SENTINEL_NAME:-}',
        REDIS_SENTINEL_PASSWORD: '${REDIS_SENTINEL_PASSWORD:-}',
      });
    }
  });
});

describe('.env.example', () => {
  const envLines = readFileSync(envExamplePath, 'utf8').split(/\r?\n/);
  const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=/;
  const envNames = envLines.flatMap((line) => {
    const match = assignment.exec(line);
    return match?.[1] ? [match[1]] : [];
  });

  it('lists every variable docker-compose.yml reads', () => {
    const composeText = readFileSync(composePath, 'utf8');
    // `$${` is compose's escape for a literal `${`, not a variable.
    const referenced = [...composeText.matchAll(/(?<!\$)\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].flatMap(
      (match) => (match[1] ? [match[1]] : []),
    );
    expect(referenced.length).toBeGreaterThan(0);
    expect([...new Set(referenced)].filter((name) => !envNames.includes(name))).toEqual([]);
  });

  it('explains each variable in a comment line right above it', () => {
    const uncommented = envLines
      .map((line, index) => ({ line, previous: index > 0 ? envLines[index - 1] : undefined }))
      .filter(({ line }) => assignment.test(line))
      .filter(({ previous }) => !previous || !/^#\s*\S/.test(previous))
      .map(({ line }) => line);
    expect(envNames.length).toBeGreaterThan(0);
    expect(uncommented).toEqual([]);
  });

  it('defines each variable once', () => {
    const duplicates = envNames.filter((name, index) => envNames.indexOf(name) !== index);
    expect(duplicates).toEqual([]);
  });
});
