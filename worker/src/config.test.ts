import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@agency/platform';
import { loadWorkerConfig, workerEnvSpec } from './config';

const base = {
  MONGODB_URI: 'mongodb://127.0.0.1:27017/agency',
  REDIS_URL: 'redis://127.0.0.1:6379',
  SMTP_URL: 'smtp://127.0.0.1:25',
  MAIL_TO: 'Agency <hi@agency.tn>',
};

function variableAtFault(env: Record<string, string | undefined>): string {
  try {
    loadWorkerConfig(env);
  } catch (error: unknown) {
    if (error instanceof ConfigError) return error.variable;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('worker configuration', () => {
  it('reads the stores, the SMTP server and the agency inbox, with defaults for the rest', () => {
    expect(loadWorkerConfig(base)).toMatchObject({
      smtpUrl: 'smtp://127.0.0.1:25',
      mailTo: 'Agency <hi@agency.tn>',
      mailFrom: 'Agency <no-reply@agency.local>',
      concurrency: 5,
      queuePrefix: 'agency',
      siteUrl: 'http://localhost:5173',
      outbox: { relayIntervalMs: 30_000, pendingAgeMs: 60_000 },
    });
  });

  it('finds Redis through the Sentinels when they are named, as the API does', () => {
    expect(
      loadWorkerConfig({
        ...base,
        REDIS_SENTINELS: 's1:26379,s2:26379',
        REDIS_SENTINEL_NAME: 'main',
      }).redisSentinel,
    ).toEqual({
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'main',
    });
  });

  it('links mail to SITE_URL, or to the site origin CORS_ORIGIN names', () => {
    expect(loadWorkerConfig({ ...base, CORS_ORIGIN: 'https://agency.tn' }).siteUrl).toBe(
      'https://agency.tn',
    );
    expect(
      loadWorkerConfig({
        ...base,
        CORS_ORIGIN: 'https://agency.tn',
        SITE_URL: 'https://www.agency.tn/',
      }).siteUrl,
    ).toBe('https://www.agency.tn');
  });

  it.each([
    [{ SMTP_URL: undefined }, 'SMTP_URL'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL'],
    [{ MAIL_TO: undefined }, 'MAIL_TO'],
    [{ WORKER_CONCURRENCY: '0' }, 'WORKER_CONCURRENCY'],
    [{ REDIS_URL: undefined }, 'REDIS_URL'],
    [{ SITE_URL: 'ftp://agency.tn' }, 'SITE_URL'],
    [{ OUTBOX_RELAY_INTERVAL_SECONDS: '0' }, 'OUTBOX_RELAY_INTERVAL_SECONDS'],
    [{ NODE_ENV: 'production' }, 'MAIL_LINK_SECRET'],
    [{ REDIS_SENTINELS: '10.0.0.5:26379' }, 'REDIS_SENTINEL_NAME'],
    [{ REDIS_SENTINELS: '10.0.0.5', REDIS_SENTINEL_NAME: 'main' }, 'REDIS_SENTINELS'],
  ])('stops on a bad setting #%#', (change, variable) => {
    expect(variableAtFault({ ...base, ...change })).toBe(variable);
  });

  it('documents every worker variable in .env.example with its real default', () => {
    const example = readFileSync(join(__dirname, '../../.env.example'), 'utf8');
    for (const [name, spec] of Object.entries(workerEnvSpec)) {
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
