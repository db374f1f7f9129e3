import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '@agency/platform';
import { apiEnvSpec, loadApiConfig } from './config';

/** This file's data folder: where a run outside production keeps the secrets it makes. */
const dataDir = mkdtempSync(join(tmpdir(), 'agency-api-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const base = {
  MONGODB_URI: 'mongodb://127.0.0.1:27017/agency',
  REDIS_URL: 'redis://127.0.0.1:6379',
  DATA_DIR: dataDir,
};

/** The development secrets older releases shipped in their source: public ever since. */
const PUBLISHED_JWT_SECRET = 'development-only-jwt-secret-never-use-in-production';
const PUBLISHED_LINK_SECRET = 'development-only-mail-link-secret';

const strongSecret = 'Vq3x9LmT2pZr8sKdW4yHcN7bJfQ1gUeA6oRt';
/** The newsletter links' key: 32 characters is the shortest production accepts. */
const strongLinkKey = 'k'.repeat(32);
const bootstrap = {
  BOOTSTRAP_ADMIN_USERNAME: 'owner',
  BOOTSTRAP_ADMIN_EMAIL: 'owner@agency.tn',
  BOOTSTRAP_ADMIN_PASSWORD: 'a long first password',
};

function configErrorOf(load: () => unknown): ConfigError {
  try {
    load();
  } catch (error: unknown) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('API configuration', () => {
  it('reads defaults when only the stores are given', () => {
    const config = loadApiConfig(base);
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 4000,
      queuePrefix: 'agency',
      jsonBodyLimit: '32kb',
      rateLimit: { windowMs: 600_000, contactMax: 10 },
      demo: { enabled: false },
      timeZone: 'Africa/Tunis',
      auth: {
        jwtSecret: readFileSync(join(dataDir, 'secrets', 'JWT_SECRET'), 'utf8').trim(),
        tokenTtlSeconds: 8 * 3600,
        loginThrottle: {
          accountMaxFailures: 10,
          accountWindowSeconds: 60,
          ipMaxFailures: 30,
          ipWindowSeconds: 900,
        },
      },
    });
    expect(config.bootstrapAdmin).toBeUndefined();
  });

  it('takes a strong JWT secret and the first admin in production', () => {
    const config = loadApiConfig({
      ...base,
      ...bootstrap,
      NODE_ENV: 'production',
      JWT_SECRET: strongSecret,
      MAIL_LINK_SECRET: strongLinkKey,
      AGENCY_TIME_ZONE: 'Europe/Paris',
    });
    expect(config.auth.jwtSecret).toBe(strongSecret);
    expect(config.timeZone).toBe('Europe/Paris');
    expect(config.bootstrapAdmin).toEqual({
      username: 'owner',
      email: 'owner@agency.tn',
      password: 'a long first password',
    });
  });

  it('treats a blank value as unset and trims the rest', () => {
    const config = loadApiConfig({ ...base, API_PORT: '  ', QUEUE_PREFIX: ' shop ' });
    expect(config.port).toBe(4000);
    expect(config.queuePrefix).toBe('shop');
  });

  it.each([
    [{ MONGODB_URI: undefined }, 'MONGODB_URI', 'is required'],
    [{ MONGODB_URI: 'postgres://x' }, 'MONGODB_URI', 'must start with mongodb:'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL', 'must be a URL'],
    [{ API_PORT: '70000' }, 'API_PORT', 'must be a whole number from 0 to 65535'],
    [{ API_PORT: '80.5' }, 'API_PORT', 'must be a whole number'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV', 'must be one of development, test, production'],
    [{ JSON_BODY_LIMIT: 'lots' }, 'JSON_BODY_LIMIT', 'must be a size'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY', 'must be true, false, or proxy addresses'],
    [{ DEMO_ADMIN_EMAIL: 'nobody' }, 'DEMO_ADMIN_EMAIL', 'must be an e-mail address'],
    [{ DEMO_ADMIN_EMAIL: '.demo@agency.tn' }, 'DEMO_ADMIN_EMAIL', 'must be an e-mail address'],
    [
      { DEMO_MODE: 'true', NODE_ENV: 'production', JWT_SECRET: strongSecret },
      'DEMO_MODE',
      'must be false',
    ],
    [
      { DEMO_MODE: 'true', DEMO_ADMIN_PASSWORD: 'short' },
      'DEMO_ADMIN_PASSWORD',
      'must be at least 8',
    ],
    [{ QUEUE_PREFIX: 'a:b' }, 'QUEUE_PREFIX', 'must not contain'],
    [
      { NODE_ENV: 'production', JWT_SECRET: strongSecret },
      'MAIL_LINK_SECRET',
      'must be a random value of at least 32',
    ],
    [
      { NODE_ENV: 'production', JWT_SECRET: strongSecret, MAIL_LINK_SECRET: 'short-secret' },
      'MAIL_LINK_SECRET',
      'must be a random value',
    ],
    [{ REDIS_REQUEST_TIMEOUT_MS: '5' }, 'REDIS_REQUEST_TIMEOUT_MS', 'must be a whole number'],
    [
      { REDIS_SENTINELS: '10.0.0.5', REDIS_SENTINEL_NAME: 'main' },
      'REDIS_SENTINELS',
      'must be host:port pairs separated by commas, such as 10.0.0.5:26379,10.0.0.6:26379 (got "10.0.0.5")',
    ],
    [
      { REDIS_SENTINELS: 'a:26379,,b:26379', REDIS_SENTINEL_NAME: 'main' },
      'REDIS_SENTINELS',
      'must be host:port pairs separated by commas, such as 10.0.0.5:26379,10.0.0.6:26379 (got "")',
    ],
    [
      { REDIS_SENTINELS: 'a:26379,b:70000', REDIS_SENTINEL_NAME: 'main' },
      'REDIS_SENTINELS',
      'must be host:port pairs separated by commas, such as 10.0.0.5:26379,10.0.0.6:26379 (got "b:70000")',
    ],
    [
      { REDIS_SENTINELS: 'a:0', REDIS_SENTINEL_NAME: 'main' },
      'REDIS_SENTINELS',
      'must be host:port pairs',
    ],
    [
      { REDIS_SENTINELS: 'redis://a:26379', REDIS_SENTINEL_NAME: 'main' },
      'REDIS_SENTINELS',
      'must be host:port pairs',
    ],
    [
      { REDIS_SENTINELS: 'a:26379' },
      'REDIS_SENTINEL_NAME',
      'must be set with REDIS_SENTINELS: the name the Sentinels know the primary by',
    ],
    [
      { REDIS_SENTINEL_NAME: 'main' },
      'REDIS_SENTINEL_NAME',
      'needs REDIS_SENTINELS: the Sentinels',
    ],
    [{ REDIS_SENTINEL_PASSWORD: 'secret' }, 'REDIS_SENTINEL_PASSWORD', 'needs REDIS_SENTINELS'],
    [
      { REDIS_SENTINELS: 'a:26379', REDIS_SENTINEL_NAME: 'my primary' },
      'REDIS_SENTINEL_NAME',
      `must be the primary's name in the Sentinels' configuration`,
    ],
    [{ NODE_ENV: 'production' }, 'JWT_SECRET', 'is required but not set'],
    [{ NODE_ENV: 'production', JWT_SECRET: 'secret' }, 'JWT_SECRET', 'must be at least 32 random'],
    [
      { NODE_ENV: 'production', JWT_SECRET: 'a'.repeat(64) },
      'JWT_SECRET',
      'must be at least 32 random',
    ],
    [
      { NODE_ENV: 'production', JWT_SECRET: PUBLISHED_JWT_SECRET },
      'JWT_SECRET',
      'must be set to a secret of your own',
    ],
    [{ JWT_SECRET: PUBLISHED_JWT_SECRET }, 'JWT_SECRET', 'must be set to a secret of your own'],
    [
      { MAIL_LINK_SECRET: PUBLISHED_LINK_SECRET },
      'MAIL_LINK_SECRET',
      'must be set to a secret of your own',
    ],
    [
      { NODE_ENV: 'production', JWT_SECRET: strongSecret, MAIL_LINK_SECRET: PUBLISHED_LINK_SECRET },
      'MAIL_LINK_SECRET',
      'must be set to a secret of your own',
    ],
    [{ JWT_EXPIRES_IN_SECONDS: '10' }, 'JWT_EXPIRES_IN_SECONDS', 'must be a whole number from 60'],
    [{ AGENCY_TIME_ZONE: 'Mars/Olympus' }, 'AGENCY_TIME_ZONE', 'must be an IANA time zone'],
    [{ LOGIN_MAX_FAILURES_PER_ACCOUNT: '0' }, 'LOGIN_MAX_FAILURES_PER_ACCOUNT', 'must be a whole'],
    [{ BOOTSTRAP_ADMIN_USERNAME: 'owner' }, 'BOOTSTRAP_ADMIN_EMAIL', 'must be set with the other'],
    [
      { ...bootstrap, BOOTSTRAP_ADMIN_PASSWORD: 'too-short' },
      'BOOTSTRAP_ADMIN_PASSWORD',
      'must be at least 12 characters',
    ],
    [
      { ...bootstrap, BOOTSTRAP_ADMIN_EMAIL: 'owner' },
      'BOOTSTRAP_ADMIN_EMAIL',
      'must be an e-mail',
    ],
  ])('stops on bad API setting #%#', (change, variable, reason) => {
    const error = configErrorOf(() => loadApiConfig({ ...base, ...change }));
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(`${variable} ${reason}`);
  });

  it('makes its secrets once per data folder and keeps them for the next start', () => {
    const first = loadApiConfig(base);
    const again = loadApiConfig({ ...base, NODE_ENV: 'test' });
    expect(again.auth.jwtSecret).toBe(first.auth.jwtSecret);
    expect(again.mailLinkSecret).toBe(first.mailLinkSecret);
    expect(first.auth.jwtSecret).not.toBe(first.mailLinkSecret);
    expect(first.auth.jwtSecret.length).toBeGreaterThanOrEqual(64);

    const otherFolder = mkdtempSync(join(tmpdir(), 'agency-api-config-other-'));
    try {
      const other = loadApiConfig({ ...base, DATA_DIR: otherFolder });
      expect(other.auth.jwtSecret).not.toBe(first.auth.jwtSecret);
      expect(other.mailLinkSecret).not.toBe(first.mailLinkSecret);
    } finally {
      rmSync(otherFolder, { recursive: true, force: true });
    }
  });

  it('keeps each made secret readable by its owner alone', () => {
    loadApiConfig(base);
    for (const name of ['JWT_SECRET', 'MAIL_LINK_SECRET']) {
      expect(statSync(join(dataDir, 'secrets', name)).mode & 0o777).toBe(0o600);
    }
    expect(statSync(join(dataDir, 'secrets')).mode & 0o077).toBe(0);
  });

  it('takes the secrets it is given over the ones it keeps', () => {
    const given = loadApiConfig({
      ...base,
      JWT_SECRET: strongSecret,
      MAIL_LINK_SECRET: strongLinkKey,
    });
    expect(given.auth.jwtSecret).toBe(strongSecret);
    expect(given.mailLinkSecret).toBe(strongLinkKey);
  });

  it('names each missing secret and DATA_DIR when it has neither outside production', () => {
    const error = configErrorOf(() => loadApiConfig({ ...base, DATA_DIR: ' ', API_PORT: '-1' }));
    expect(error.message).toMatch(
      /JWT_SECRET is required but not set: [^;]*set DATA_DIR to a folder/,
    );
    expect(error.message).toContain('API_PORT must be a whole number');
    const linkOnly = configErrorOf(() =>
      loadApiConfig({ ...base, DATA_DIR: undefined, JWT_SECRET: strongSecret }),
    );
    expect(linkOnly.variable).toBe('MAIL_LINK_SECRET');
    expect(linkOnly.message).toMatch(
      /MAIL_LINK_SECRET is required but not set: [^;]*set DATA_DIR to a folder/,
    );
  });

  it('makes nothing in production: it refuses to start without secrets of its own', () => {
    const productionFolder = mkdtempSync(join(tmpdir(), 'agency-api-config-production-'));
    try {
      const error = configErrorOf(() =>
        loadApiConfig({ ...base, NODE_ENV: 'production', DATA_DIR: productionFolder }),
      );
      expect(error.message).toContain('JWT_SECRET is required but not set');
      expect(error.message).toContain('JWT_SECRET is required but not set: set it');
      expect(() => statSync(join(productionFolder, 'secrets'))).toThrow(/ENOENT/);
    } finally {
      rmSync(productionFolder, { recursive: true, force: true });
    }
  });

  it('takes a production link key of 32 characters or more', () => {
    const config = loadApiConfig({
      ...base,
      NODE_ENV: 'production',
      JWT_SECRET: strongSecret,
      MAIL_LINK_SECRET: strongLinkKey,
    });
    expect(config.mailLinkSecret).toBe(strongLinkKey);
  });

  it('finds Redis at REDIS_URL unless Sentinels are named', () => {
    expect(loadApiConfig(base).redisSentinel).toBeUndefined();
  });

  it('reads the Sentinels, IPv6 ones in brackets, with the primary name and their password', () => {
    const config = loadApiConfig({
      ...base,
      REDIS_SENTINELS: ' 10.0.0.5:26379, sentinel-2.internal:26380 ,[fd00::7]:26379',
      REDIS_SENTINEL_NAME: 'agency-main',
      REDIS_SENTINEL_PASSWORD: 'sentinel-secret',
    });
    expect(config.redisSentinel).toEqual({
      sentinels: [
        { host: '10.0.0.5', port: 26379 },
        { host: 'sentinel-2.internal', port: 26380 },
        { host: 'fd00::7', port: 26379 },
      ],
      name: 'agency-main',
      password: 'sentinel-secret',
    });
    // The URL still carries the primary's password, database and TLS.
    expect(config.redisUrl).toBe(base.REDIS_URL);
  });

  it('leaves the Sentinel password out when the Sentinels have none', () => {
    const config = loadApiConfig({
      ...base,
      REDIS_SENTINELS: 'a:26379',
      REDIS_SENTINEL_NAME: 'main',
    });
    expect(config.redisSentinel).toEqual({ sentinels: [{ host: 'a', port: 26379 }], name: 'main' });
  });

  it('reads the newsletter limits and the Redis request timeout', () => {
    expect(loadApiConfig(base)).toMatchObject({
      rateLimit: { newsletterMax: 10, newsletterAddressMax: 3, newsletterLinksMax: 60 },
      redisRequestTimeoutMs: 500,
    });
  });

  it('names every bad variable in one message', () => {
    const error = configErrorOf(() =>
      loadApiConfig({ REDIS_URL: base.REDIS_URL, API_PORT: '-1', LOG_LEVEL: 'loud' }),
    );
    expect(error.message).toContain('MONGODB_URI is required but not set');
    expect(error.message).toContain('API_PORT must be a whole number');
    expect(error.message).toContain('LOG_LEVEL must be one of');
  });

  it('keeps media in MEDIA_DIR unless a bucket is set, with absolute URLs from SITE_URL', () => {
    const local = loadApiConfig({ ...base, SITE_URL: 'https://agency.example/' });
    expect(local.media).toMatchObject({
      storage: { kind: 'filesystem', dir: '.data/media' },
      siteUrl: 'https://agency.example',
    });
    expect(loadApiConfig({ ...base, CORS_ORIGIN: 'http://localhost:8080' }).media.siteUrl).toBe(
      'http://localhost:8080',
    );
    const bucket = loadApiConfig({
      ...base,
      MEDIA_S3_BUCKET: 'images',
      MEDIA_S3_ENDPOINT: 'http://127.0.0.1:7070',
      MEDIA_S3_ACCESS_KEY_ID: 'key',
      MEDIA_S3_SECRET_ACCESS_KEY: 'secret',
      MEDIA_S3_FORCE_PATH_STYLE: 'true',
      MEDIA_S3_PUBLIC_URL: 'https://cdn.agency.example/media/',
    });
    expect(bucket.media.storage).toEqual({
      kind: 's3',
      bucket: 'images',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:7070',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      forcePathStyle: true,
      publicUrl: 'https://cdn.agency.example/media',
    });
  });

  it('refuses S3 settings without a bucket, one key without the other, and a bad endpoint', () => {
    expect(
      configErrorOf(() => loadApiConfig({ ...base, MEDIA_S3_ENDPOINT: 'http://127.0.0.1:7070' }))
        .variable,
    ).toBe('MEDIA_S3_ENDPOINT');
    expect(
      configErrorOf(() =>
        loadApiConfig({ ...base, MEDIA_S3_BUCKET: 'images', MEDIA_S3_ACCESS_KEY_ID: 'key' }),
      ).variable,
    ).toBe('MEDIA_S3_SECRET_ACCESS_KEY');
    expect(
      configErrorOf(() =>
        loadApiConfig({ ...base, MEDIA_S3_BUCKET: 'images', MEDIA_S3_ENDPOINT: 'not a url' }),
      ).message,
    ).toContain('MEDIA_S3_ENDPOINT must be a URL');
  });

  it('documents every API variable in .env.example with its real default', () => {
    const example = readFileSync(join(__dirname, '../../.env.example'), 'utf8');
    for (const [name, spec] of Object.entries(apiEnvSpec)) {
      const line = new RegExp(`^${name}=(.*)$`, 'm').exec(example);
      expect({ name, documented: line !== null }).toEqual({ name, documented: true });
      const fallback: unknown = 'default' in spec ? spec.default : undefined;
      if (fallback !== undefined && line) {
        expect({ name, value: line[1]?.replace(/^"(.*)"$/, '$1') }).toEqual({
          name,
          value: String(fallback),
        });
      }
    }
  });
});
